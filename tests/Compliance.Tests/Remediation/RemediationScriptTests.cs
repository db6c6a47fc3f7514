using System.Diagnostics;
using System.Text;
using IfiDashboard.Compliance.Facts;
using IfiDashboard.Compliance.Remediation;
using IfiDashboard.Shared.Snapshots;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

/// <summary>
/// The generated remediation script run by PowerShell 7 under Pester (RemediationScript.Tests.ps1 beside this file),
/// against stubbed Windows commands: packs from the real generator, one per situation, in a temporary folder. Both
/// come from scripts/install-test-dependencies.sh (.tools/pwsh, tests/PowerShell/packages).
/// </summary>
public sealed class RemediationScriptTests
{
    /// <summary>The It blocks of RemediationScript.Tests.ps1: fewer passed means some were never run.</summary>
    const int PesterTests = 14;

    [Fact]
    public async Task The_script_fails_closed_can_be_backed_out_and_respects_GPOs_clusters_and_availability_groups()
    {
        var pwsh = Path.Combine(RepositoryRoot.Path, ".tools", "pwsh");
        var pester = Path.Combine(RepositoryRoot.Path, "tests", "PowerShell", "packages", "pester", "6.2.0", "tools", "Pester.psd1");
        var tests = Path.Combine(RepositoryRoot.Path, "tests", "Compliance.Tests", "Remediation", "RemediationScript.Tests.ps1");
        if (!File.Exists(pwsh) || !File.Exists(pester))
            throw new InvalidOperationException($"PowerShell ({pwsh}) or Pester ({pester}) is missing: run scripts/install-test-dependencies.sh");

        var packs = Directory.CreateTempSubdirectory("ifi-packs-");
        try
        {
            var standalone = Instance(IfiState.Disabled, name: "SQLHOST01") with { EngineServiceAccount = @"CORP\svc-sql" };
            WritePack(packs.FullName, "grant.ps1", ("sql-grant", standalone, PrivilegeAction.Grant));
            WritePack(packs.FullName, "localsystem.ps1", ("sql-system", standalone with { EngineServiceAccount = "LocalSystem" }, PrivilegeAction.Grant));
            WritePack(packs.FullName, "revoke-local.ps1", ("sql-pci", standalone with { EngineServiceAccount = @".\sqlsvc" }, PrivilegeAction.Revoke));
            WritePack(packs.FullName, "revoke-gone.ps1", ("sql-gone", standalone with { EngineServiceAccount = @"CORP\gone" }, PrivilegeAction.Revoke));
            WritePack(packs.FullName, "cluster.ps1", ("fci-sales", standalone with
            {
                IsClustered = true, SqlInstanceName = "SALES", EngineServiceAccount = @"NT Service\MSSQL$SALES", ClusterNodes = ["SQLNODE2", "SQLNODE1"],
            }, PrivilegeAction.Grant));

            var command = $$"""
                Import-Module '{{pester}}'
                $configuration = New-PesterConfiguration
                $configuration.Run.Path = '{{tests}}'
                $configuration.Run.PassThru = $true
                $configuration.Output.Verbosity = 'Detailed'
                $result = Invoke-Pester -Configuration $configuration
                'PESTER passed={0} failed={1}' -f $result.PassedCount, $result.FailedCount
                """;
            var start = new ProcessStartInfo(pwsh) { RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (var argument in new[] { "-NoProfile", "-NonInteractive", "-Command", command })
                start.ArgumentList.Add(argument);
            start.Environment["IFI_PACKS"] = packs.FullName;
            start.Environment["NO_COLOR"] = "1";
            using var process = Process.Start(start)!;
            var output = process.StandardOutput.ReadToEndAsync();
            var errors = process.StandardError.ReadToEndAsync();
            // A safety net only: the run takes seconds to a few minutes on a loaded machine.
            using var timeout = new CancellationTokenSource(TimeSpan.FromMinutes(15));
            try { await process.WaitForExitAsync(timeout.Token); }
            catch (OperationCanceledException) { process.Kill(entireProcessTree: true); }
            var report = await output + await errors;

            Assert.True(report.Contains($"PESTER passed={PesterTests} failed=0", StringComparison.Ordinal), report);
        }
        finally
        {
            packs.Delete(recursive: true);
        }
    }

    /// <summary>A pack as the dashboard writes it: the real generator, UTF-8 with a byte order mark.</summary>
    static void WritePack(string folder, string file, params (string Name, InstanceFacts Facts, PrivilegeAction Action)[] instances) =>
        File.WriteAllText(Path.Combine(folder, file), RemediationScript.Write(Pack(instances)), new UTF8Encoding(encoderShouldEmitUTF8Identifier: true));

    /// <summary>One maintenance window of the given instances, each with the change the advisor would plan for it.</summary>
    internal static RemediationPack Pack(params (string Name, InstanceFacts Facts, PrivilegeAction Action)[] instances) => new()
    {
        GeneratedAt = Now,
        GeneratedBy = "pester",
        Scope = "test",
        Windows = [new RemediationWindow("Production", instances.Select((x, i) =>
            new PackedInstance(i + 1, x.Name, "Production", "dba", x.Facts.ProductVersion, PrivilegeChange.For(x.Facts, x.Action))).ToList())],
        Skipped = [],
    };
}
