using System.Globalization;
using IfiDashboard.Server.Composition;
using IfiDashboard.Server.Hosting;
using IfiDashboard.Store;
using IfiDashboard.Store.ApiKeys;
using IfiDashboard.Store.Audit;
using IfiDashboard.Server.Security;
using IfiDashboard.Server.Store;

namespace IfiDashboard.Server.Api.Keys;

/// <summary>
/// <c>dotnet run --project src/Server -- api-key create|list|revoke</c>: key administration from the server's own
/// command line, against the store its configuration names, without starting the server. Other
/// <c>--Section:Key=value</c> arguments configure it as they would the server.
/// </summary>
public static class ApiKeyCli
{
    public const string Command = "api-key";

    const string Usage = """
        Usage:
          api-key create --name NAME --scopes SCOPE[,SCOPE...] [--collector COLLECTOR]
                                                                create a key and print it (once); a key with
                                                                snapshot:ingest belongs to the collector named
          api-key list                                          list keys (never the keys themselves)
          api-key revoke PREFIX                                 revoke a key
        Scopes: read, inventory:write, snapshot:ingest, audit:read, admin.
        """;

    /// <summary>Runs the command when the arguments start with it; the caller then exits instead of serving.</summary>
    public static Task<bool> TryRunAsync(string[] args) => ServerCommand.TryRunAsync(args, Command, RunAsync);

    /// <returns>0 done, 1 nothing to revoke, 2 usage error.</returns>
    public static async Task<int> RunAsync(string[] args, TextWriter output, TextWriter error)
    {
        var (verb, options, positional, hostArgs) = Split(args);
        if (verb is not ("create" or "list" or "revoke"))
            return Fail(error, verb is null ? "A command is required." : $"Unknown command '{verb}'.");

        await using var app = BuildHost(hostArgs);
        await app.Services.MigrateIfiStoreAsync();
        var keys = app.Services.GetRequiredService<ApiKeyStore>();
        switch (verb)
        {
            case "create":
                return await CreateAsync(app.Services.GetRequiredService<ApiKeyIssuer>(), options, output, error);
            case "list":
                await ListAsync(keys, output);
                return 0;
            default:
                if (positional.Count != 1)
                    return Fail(error, "api-key revoke takes the key's prefix.");
                if (await keys.RevokeAsync(positional[0], CancellationToken.None) is not { } revoked)
                {
                    await error.WriteLineAsync($"No API key has the prefix '{positional[0]}'.");
                    return 1;
                }
                await output.WriteLineAsync($"Revoked API key {revoked.Prefix} ({revoked.Name}).");
                return 0;
        }
    }

    static async Task<int> CreateAsync(ApiKeyIssuer issuer, Dictionary<string, string> options, TextWriter output, TextWriter error)
    {
        options.TryGetValue("name", out var name);
        var scopes = options.TryGetValue("scopes", out var list)
            ? list.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries)
            : [];
        options.TryGetValue("collector", out var collector);
        var errors = ApiKeyIssuer.Validate(name, scopes, collector);
        if (errors.Count > 0)
            return Fail(error, string.Join(Environment.NewLine, errors.Select(e => $"--{e.Key.Split('[')[0]}: {string.Join(" ", e.Value)}")));

        var (record, key) = await issuer.CreateAsync(name!, scopes, collector, CancellationToken.None);
        await output.WriteLineAsync($"Created API key {record.Prefix} ({record.Name}) with scopes {string.Join(",", record.Scopes)}" +
            (record.CollectorName is null ? "." : $" for the collector '{record.CollectorName}'."));
        await output.WriteLineAsync("Store the key now: it is shown only this once.");
        await output.WriteLineAsync(key);
        return 0;
    }

    static async Task ListAsync(ApiKeyStore keys, TextWriter output)
    {
        await output.WriteLineAsync("PREFIX\tNAME\tSCOPES\tCOLLECTOR\tCREATED\tREVOKED");
        foreach (var key in await keys.ListAsync(CancellationToken.None))
            await output.WriteLineAsync(string.Join('\t', key.Prefix, key.Name, string.Join(",", key.Scopes), key.CollectorName ?? "-",
                key.CreatedAt.ToString("u", CultureInfo.InvariantCulture),
                key.RevokedAt?.ToString("u", CultureInfo.InvariantCulture) ?? "-"));
    }

    static WebApplication BuildHost(string[] hostArgs)
    {
        var builder = ServerHost.CreateBuilder(hostArgs);
        // The output is the key and the table; migration logs would only get in the way of scripts reading it.
        builder.Logging.ClearProviders();
        builder.Services.AddIfiStore(builder.Configuration);
        builder.Services.AddSingleton(new AuditActors(outsideRequests: new AuditActor($"api-key command ({Environment.UserName})", null)));
        builder.Services.AddSingleton<ApiKeyStore>();
        builder.Services.AddSingleton<ApiKeyIssuer>();
        return builder.Build();
    }

    /// <summary>The verb, its --name/--scopes options, its positional arguments, and everything else for the host.</summary>
    static (string? Verb, Dictionary<string, string> Options, List<string> Positional, string[] HostArgs) Split(string[] args)
    {
        string[] known = ["name", "scopes", "collector"];
        var options = new Dictionary<string, string>(StringComparer.Ordinal);
        var positional = new List<string>();
        var hostArgs = new List<string>();
        for (var i = 1; i < args.Length; i++)
        {
            var arg = args[i];
            if (!arg.StartsWith("--", StringComparison.Ordinal))
            {
                positional.Add(arg);
                continue;
            }
            var (key, value) = arg.IndexOf('=') is var eq and > 0 ? (arg[2..eq], arg[(eq + 1)..]) : (arg[2..], null);
            if (value is null && i + 1 < args.Length)
                value = args[++i];
            if (known.Contains(key))
                options[key] = value ?? "";
            else
                hostArgs.AddRange([$"--{key}", value ?? ""]);
        }
        return (args.Length > 0 ? args[0] : null, options, positional, hostArgs.ToArray());
    }

    static int Fail(TextWriter error, string message)
    {
        error.WriteLine(message);
        error.WriteLine(Usage);
        return 2;
    }
}
