using System.Diagnostics;
using System.Text.Json;
using IfiDashboard.Simulator.Hosting;

namespace IfiDashboard.Simulator.Tests.Tds;

/// <summary>
/// tedious, Node.js's TDS driver, run through tests/TdsClients/query.mjs: a second client written independently of
/// Microsoft's SqlClient (beside FreeTDS), with its own PRELOGIN, TLS, TDS 8.0 and token-stream code, and a choice of
/// TDS version from 7.1 to 7.4. scripts/install-test-dependencies.sh installs it (npm ci in tests/TdsClients).
/// </summary>
internal static class TediousClient
{
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(45);

    public sealed record Column(string Name, string Type);

    public sealed record Parameter(string Name, string Type, object? Value);

    /// <summary>What tedious saw: the agreed TDS version ("7_4"), columns and rows, or the error it raised.</summary>
    public sealed record Result(string? TdsVersion, IReadOnlyList<Column> Columns, IReadOnlyList<JsonElement[]> Rows,
        string? Error, string Raw);

    /// <param name="encrypt">tedious's <c>encrypt</c>: false, true or "strict" (TDS 8.0).</param>
    /// <param name="tdsVersion">"7_1", "7_2", "7_3_A", "7_3_B" or "7_4".</param>
    /// <param name="parameters">Typed parameters (tedious's TYPES names; VarBinary values in hex): the batch then goes as sp_executesql.</param>
    public static async Task<Result> RunAsync(int port, string login, string password, object encrypt, string sql,
        string tdsVersion = "7_4", IReadOnlyList<Parameter>? parameters = null)
    {
        var directory = ClientsDirectory();
        // The simulator's self-signed certificate as the trusted root: strict mode (TDS 8.0) always checks it.
        var settings = JsonSerializer.Serialize(new
        {
            port, user = login, password, encrypt, tdsVersion, sql, ca = ServerCertificate.ExportPem(),
            @params = (parameters ?? []).Select(p => new { name = p.Name, type = p.Type, value = p.Value }),
        });
        var start = new ProcessStartInfo("node")
        {
            ArgumentList = { Path.Combine(directory, "query.mjs"), settings },
            WorkingDirectory = directory,
        };
        var output = await ClientProcess.RunAsync(start, input: null, Timeout);

        var raw = output.Standard.Trim();
        if (raw.Length == 0)
            throw new InvalidOperationException($"tedious printed nothing (exit {output.ExitCode}):\n{output.Errors}");
        using var document = JsonDocument.Parse(raw.Split('\n')[^1]);
        var root = document.RootElement;
        return new Result(
            root.TryGetProperty("tdsVersion", out var version) && version.ValueKind == JsonValueKind.String ? version.GetString() : null,
            root.TryGetProperty("columns", out var columns)
                ? columns.EnumerateArray().Select(c => new Column(c.GetProperty("name").GetString()!, c.GetProperty("type").GetString()!)).ToList()
                : [],
            root.TryGetProperty("rows", out var rows)
                ? rows.EnumerateArray().Select(r => r.EnumerateArray().Select(v => v.Clone()).ToArray()).ToList()
                : [],
            root.TryGetProperty("error", out var error) ? error.GetProperty("message").GetString() : null,
            raw);
    }

    private static string ClientsDirectory()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var candidate = Path.Combine(dir.FullName, "tests", "TdsClients");
            if (!File.Exists(Path.Combine(candidate, "query.mjs"))) continue;
            if (!Directory.Exists(Path.Combine(candidate, "node_modules", "tedious")))
                throw new InvalidOperationException(
                    $"tedious is not installed in {candidate}: run scripts/install-test-dependencies.sh (npm ci there).");
            return candidate;
        }
        throw new InvalidOperationException("tests/TdsClients/query.mjs not found above " + AppContext.BaseDirectory);
    }
}
