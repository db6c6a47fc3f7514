using System.Diagnostics;
using System.Text.Json;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.Extensions.DependencyInjection;

namespace IfiDashboard.Server.Tests.Api.Contract;

/// <summary>
/// The contract as an integrator meets it (tests/ApiContract, installed by scripts/install-test-dependencies.sh):
/// redocly lints <c>/openapi/v1.json</c> as served to a <c>read</c> key, and openapi-typescript generates the client
/// that flows.ts, compiled with tsc --strict, drives through sync, paging, the changes feed and a four-eyes waiver
/// (granted by one policy:write key, approved by another, read back, revoked) against the real server on a loopback socket.
/// </summary>
public sealed class GeneratedClientTests : IAsyncLifetime
{
    // Generous: node, tsc and redocly start slowly on a loaded machine; only a hang should reach it.
    static readonly TimeSpan Timeout = TimeSpan.FromMinutes(5);

    // Four-eyes as shipped (ApiHost turns it off for tests that grant waivers counting at once).
    readonly ApiHost _host = new(builder => builder.UseSetting("Auth:WaiversNeedApproval", "true"));
    readonly string _work = Directory.CreateTempSubdirectory("ifi-contract-").FullName;
    string _baseUrl = "";
    string _document = "";

    public async Task InitializeAsync()
    {
        _host.UseKestrel(0);
        _host.StartServer();
        _baseUrl = _host.Services.GetRequiredService<IServer>().Features.Get<IServerAddressesFeature>()!.Addresses.First();
        _document = Path.Combine(_work, "openapi.json");
        await File.WriteAllTextAsync(_document, await _host.Client(await _host.CreateKeyAsync("read")).GetStringAsync("/openapi/v1.json"));
    }

    public async Task DisposeAsync()
    {
        await _host.DisposeAsync();
        try { Directory.Delete(_work, recursive: true); } catch (IOException) { }
    }

    [Fact]
    public async Task Redocly_lint_finds_no_error_and_no_warning_but_the_one_docs_api_md_justifies()
    {
        var lint = await NodeAsync(_work, expectSuccess: false, Tool("@redocly/cli/bin/cli.js"), "lint", _document, "--format=json",
            "--config", Path.Combine(ContractDirectory(), "redocly.yaml"));

        var problems = JsonDocument.Parse(lint.Standard).RootElement.GetProperty("problems").EnumerateArray()
            .Select(p => (Severity: p.GetProperty("severity").GetString(), Rule: p.GetProperty("ruleId").GetString(),
                Text: $"{p.GetProperty("ruleId").GetString()}: {p.GetProperty("message").GetString()} at {Location(p)}"))
            .ToList();
        Assert.Empty(problems.Where(p => p.Severity == "error").Select(p => p.Text));
        // docs/api.md ("The contract"): the document names no licence, as the product grants integrators none.
        Assert.Empty(problems.Where(p => p.Rule != "info-license").Select(p => p.Text));
        Assert.Equal(0, lint.ExitCode);
    }

    static string Location(JsonElement problem) =>
        problem.TryGetProperty("location", out var locations) && locations.ValueKind == JsonValueKind.Array
            ? string.Join(", ", locations.EnumerateArray().Select(l => l.TryGetProperty("pointer", out var pointer) ? pointer.GetString() : null))
            : "";

    [Fact]
    public async Task A_client_generated_from_the_document_drives_sync_paging_changes_and_waivers()
    {
        await NodeAsync(_work, Tool("openapi-typescript/bin/cli.js"), _document, "--output", Path.Combine(_work, "schema.d.ts"));
        File.Copy(Path.Combine(ContractDirectory(), "flows.ts"), Path.Combine(_work, "flows.ts"));
        File.CreateSymbolicLink(Path.Combine(_work, "node_modules"), Path.Combine(ContractDirectory(), "node_modules"));
        await File.WriteAllTextAsync(Path.Combine(_work, "package.json"), """{ "type": "module" }""");
        await File.WriteAllTextAsync(Path.Combine(_work, "tsconfig.json"), """
            { "compilerOptions": { "strict": true, "target": "ES2022", "module": "ES2022", "moduleResolution": "Bundler",
              "skipLibCheck": true, "types": [] }, "files": ["flows.ts"] }
            """);
        await NodeAsync(_work, Tool("typescript/bin/tsc"), "-p", _work);

        var key = await _host.CreateKeyAsync("read", "inventory:write");
        var grantingKey = await _host.CreateKeyAsync("policy:write");
        var approvingKey = await _host.CreateKeyAsync("policy:write");
        var run = await NodeAsync(_work, Path.Combine(_work, "flows.js"), _baseUrl, key, grantingKey, approvingKey);

        Assert.Equal("ok", run.Standard.Trim());
    }

    static Task<ClientProcess.Output> NodeAsync(string directory, params string[] arguments) =>
        NodeAsync(directory, expectSuccess: true, arguments);

    static async Task<ClientProcess.Output> NodeAsync(string directory, bool expectSuccess, params string[] arguments)
    {
        var start = new ProcessStartInfo("node") { WorkingDirectory = directory };
        foreach (var argument in arguments)
            start.ArgumentList.Add(argument);
        // No telemetry or update check from redocly: the suite runs offline and says nothing about itself.
        start.Environment["REDOCLY_TELEMETRY"] = "off";
        start.Environment["REDOCLY_SUPPRESS_UPDATE_NOTICE"] = "true";
        var output = await ClientProcess.RunAsync(start, input: null, Timeout);
        if (expectSuccess)
            Assert.True(output.ExitCode == 0, $"node {string.Join(' ', arguments)} exited {output.ExitCode}:\n{output.Standard}\n{output.Errors}");
        return output;
    }

    static string Tool(string path) => Path.Combine(ContractDirectory(), "node_modules", path);

    static string ContractDirectory()
    {
        for (var directory = new DirectoryInfo(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            var candidate = Path.Combine(directory.FullName, "tests", "ApiContract");
            if (Directory.Exists(candidate))
                return candidate;
        }
        throw new InvalidOperationException("tests/ApiContract not found above the test binaries.");
    }
}
