using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Scenarios;

// Simulator CLI: serves every instance of a scenario on loopback, prints NAME<TAB>connection string per instance,
// then runs until stopped (Ctrl+C or SIGTERM).
var scenarioPath = ArgValue(args, "--scenario");
if (scenarioPath is null)
{
    Console.Error.WriteLine("usage: IfiDashboard.Simulator --scenario FILE [--cert-out FILE.pem]");
    return 2;
}

Scenario scenario;
try
{
    scenario = ScenarioFile.Load(scenarioPath);
}
catch (Exception e) when (e is IOException or InvalidDataException or ArgumentException or UnauthorizedAccessException)
{
    Console.Error.WriteLine(e.Message);
    return 1;
}

if (ArgValue(args, "--cert-out") is { } certPath)
    await File.WriteAllTextAsync(certPath, ServerCertificate.ExportPem());

await using var fleet = FleetSimulator.Start(scenario);
var login = scenario.DefaultLogins.FirstOrDefault(l => l.Password is not null);
foreach (var instance in fleet.Instances)
{
    var account = instance.Scenario.Logins.FirstOrDefault(l => l.Password is not null) ?? login;
    var connection = account?.Password is null
        ? $"Server=127.0.0.1,{instance.Port};Encrypt=Mandatory;TrustServerCertificate=true;Integrated Security=true"
        : instance.ConnectionString(account.Name, account.Password);
    Console.WriteLine($"{instance.Name}\t{connection}");
}
Console.Out.Flush();

using var stop = new CancellationTokenSource();
Console.CancelKeyPress += (_, e) => { e.Cancel = true; stop.Cancel(); };
AppDomain.CurrentDomain.ProcessExit += (_, _) => stop.Cancel();
try { await Task.Delay(Timeout.Infinite, stop.Token); } catch (OperationCanceledException) { }
return 0;

static string? ArgValue(string[] args, string name)
{
    var index = Array.IndexOf(args, name);
    return index >= 0 && index + 1 < args.Length ? args[index + 1] : null;
}
