using System.Collections.Concurrent;
using System.Diagnostics;
using System.Text;
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
    // A safety net beyond query.mjs's own (60 s to connect, 60 s to answer), so that a failure shows tedious's error.
    private static readonly TimeSpan Timeout = TimeSpan.FromSeconds(150);

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
        var id = Interlocked.Increment(ref _lastId);
        // The simulator's self-signed certificate as the trusted root: strict mode (TDS 8.0) always checks it.
        var settings = JsonSerializer.Serialize(new
        {
            id, port, user = login, password, encrypt, tdsVersion, sql, ca = ServerCertificate.ExportPem(),
            @params = (parameters ?? []).Select(p => new { name = p.Name, type = p.Type, value = p.Value }),
        });
        var raw = await Node.Value.AskAsync(id, settings);

        using var document = JsonDocument.Parse(raw);
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

    private static long _lastId;

    // One Node process for every query of the test run: starting Node and loading tedious costs about half a second of
    // processor, more than the query. Each query still gets a connection of its own.
    private static readonly Lazy<NodeProcess> Node = new(NodeProcess.Start);

    /// <summary>query.mjs reading queries from its standard input, answering each on a line with the query's id.</summary>
    private sealed class NodeProcess
    {
        private readonly Process _process;
        private readonly ConcurrentDictionary<long, TaskCompletionSource<string>> _waiting = new();
        private readonly Lock _writing = new();
        private readonly StringBuilder _errors = new();

        private NodeProcess(Process process) => _process = process;

        public static NodeProcess Start()
        {
            var directory = ClientsDirectory();
            var start = new ProcessStartInfo("node")
            {
                ArgumentList = { Path.Combine(directory, "query.mjs") },
                WorkingDirectory = directory,
                RedirectStandardInput = true,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                StandardInputEncoding = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false),
                StandardOutputEncoding = Encoding.UTF8,
            };
            var node = new NodeProcess(Process.Start(start) ?? throw new InvalidOperationException("node did not start."));
            // Off the test's synchronization context: the readers outlive the test that started Node.
            _ = Task.Run(node.ReadAnswersAsync);
            _ = Task.Run(node.ReadErrorsAsync);
            return node;
        }

        public async Task<string> AskAsync(long id, string settings)
        {
            var answer = new TaskCompletionSource<string>(TaskCreationOptions.RunContinuationsAsynchronously);
            _waiting[id] = answer;
            lock (_writing)
            {
                if (_process.HasExited) answer.TrySetException(Ended());
                else
                {
                    try
                    {
                        _process.StandardInput.WriteLine(settings);
                        _process.StandardInput.Flush();
                    }
                    catch (IOException)
                    {
                        // Node is ending: ReadAnswersAsync fails every query still waiting once it has.
                    }
                }
            }
            try
            {
                return await answer.Task.WaitAsync(Timeout);
            }
            catch (TimeoutException)
            {
                throw new TimeoutException($"tedious did not answer within {Timeout.TotalSeconds} s. Its errors so far:\n{ErrorsSoFar()}");
            }
            finally
            {
                _waiting.TryRemove(id, out _);
            }
        }

        private async Task ReadAnswersAsync()
        {
            while (await _process.StandardOutput.ReadLineAsync() is { } line)
            {
                if (!line.StartsWith('{')) continue;
                using var answer = JsonDocument.Parse(line);
                if (answer.RootElement.TryGetProperty("id", out var id) && _waiting.TryGetValue(id.GetInt64(), out var waiting))
                    waiting.TrySetResult(line);
            }
            await _process.WaitForExitAsync();
            foreach (var waiting in _waiting.Values) waiting.TrySetException(Ended());
        }

        private async Task ReadErrorsAsync()
        {
            var buffer = new char[4096];
            int read;
            while ((read = await _process.StandardError.ReadAsync(buffer)) > 0)
                lock (_errors)
                {
                    _errors.Append(buffer, 0, read);
                    // TDS_DEBUG logs every packet: keep the end, which names what failed.
                    if (_errors.Length > 64 * 1024) _errors.Remove(0, _errors.Length - 64 * 1024);
                }
        }

        private string ErrorsSoFar()
        {
            lock (_errors) return _errors.ToString();
        }

        private InvalidOperationException Ended() =>
            new($"tedious (node query.mjs) ended (exit {_process.ExitCode}) before answering:\n{ErrorsSoFar()}");
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
