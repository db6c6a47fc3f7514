using System.Net.Security;
using System.Net.Sockets;
using System.Security.Authentication;
using IfiDashboard.Simulator.Engine;
using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Hosting;
using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Tds;

/// <summary>
/// One client connection to one simulated instance: PRELOGIN (with the four ways of encryption), LOGIN7, then
/// batches and RPCs until the client leaves. Failures end this connection only.
/// </summary>
internal sealed class TdsConnection(Socket socket, SimulatedInstance instance, IQueryEngine engine)
{
    const byte TlsHandshakeRecord = 0x16;
    static readonly SslApplicationProtocol Tds80 = new("tds/8.0");
    /// <summary>Kerberos needs one leg and NTLM two; more is a client going round in circles.</summary>
    const int MaxSspiLegs = 4;

    readonly NetworkStream _network = new(socket, ownsSocket: false);
    TdsTransport _transport = null!;
    SessionContext? _session;
    uint _tdsVersion = ClientTdsVersions.Tds74;
    string _loginDatabase = "master";
    readonly RpcProcedures _procedures = new();
    /// <summary>The client asked for MARS in PRELOGIN, as SQL Server 2005 and later grant: after login it speaks SMP.</summary>
    bool _mars;


    ScenarioInstance Scenario => instance.Scenario;
    Transcript Transcript => instance.Transcript;

    public async Task RunAsync(CancellationToken cancellationToken)
    {
        try
        {
            if (!await NegotiateWithinLoginTimeoutAsync(cancellationToken)) return;
            if (_mars) await ServeMarsSessionsAsync(cancellationToken);
            else await ServeRequestsAsync(_transport, cancellationToken);
        }
        catch (TdsProtocolException e)
        {
            Transcript.Add(TranscriptKinds.ProtocolError, e.Message);
        }
        catch (Exception e) when (e is IOException or SocketException or AuthenticationException or OperationCanceledException
                                   or ObjectDisposedException)
        {
            // The client went away or the simulator is stopping: nothing to answer, but keep the reason for tests.
            Transcript.Add(TranscriptKinds.Disconnected, $"{e.GetType().Name}: {e.Message}");
        }
        finally
        {
            socket.Dispose();
        }
    }

    /// <summary>
    /// PRELOGIN to LOGINACK within the instance's login timeout: a client that connects and then sends nothing (or
    /// stalls mid-handshake) is disconnected and logged, instead of holding the connection until the simulator stops.
    /// </summary>
    async Task<bool> NegotiateWithinLoginTimeoutAsync(CancellationToken stopping)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(stopping);
        deadline.CancelAfter(TimeSpan.FromSeconds(Math.Max(1, Scenario.LoginTimeoutSeconds)));
        try
        {
            return await NegotiateAsync(deadline.Token);
        }
        catch (OperationCanceledException) when (!stopping.IsCancellationRequested)
        {
            var message = $"no login within {Scenario.LoginTimeoutSeconds} s of connecting: connection closed";
            Transcript.Add(TranscriptKinds.LoginTimeout, message);
            engine.Log($"simulator: {instance.Name}: {message}");
            return false;
        }
    }

    async Task<bool> NegotiateAsync(CancellationToken ct)
    {
        _transport = new TdsTransport(_network);
        var strict = await StartsWithTlsAsync(ct);
        if (strict)
        {
            if (instance.Profile.Major < 16) return false; // TDS 8.0 arrived with SQL Server 2022.
            var ssl = new SslStream(_network, leaveInnerStreamOpen: true);
            await ssl.AuthenticateAsServerAsync(new SslServerAuthenticationOptions
            {
                ServerCertificate = ServerCertificate.Instance,
                ApplicationProtocols = [Tds80],
                EnabledSslProtocols = SslProtocols.Tls12 | SslProtocols.Tls13,
            }, ct);
            _transport.Stream = ssl;
        }

        var preLogin = await _transport.ReadMessageAsync(ct);
        if (preLogin is null) return false;
        if (preLogin.Type != TdsPacketType.PreLogin)
            throw new TdsProtocolException($"Expected PRELOGIN, got packet type 0x{preLogin.Type:X2}.");
        if (Scenario.Faults.HangInPreLogin)
        {
            await Task.Delay(Timeout.Infinite, ct);
            return false;
        }
        var request = PreLoginRequest.Parse(preLogin.Payload);
        if (!strict && Scenario.Encryption == EncryptionSupport.Strict)
            return false; // "Force Strict Encryption": only TDS 8.0 clients are served.

        var answer = strict ? PreLoginEncryption.NotSupported : ChooseEncryption(request.Encryption);
        await _transport.WriteMessageAsync(TdsPacketType.TabularResult,
            PreLoginRequest.BuildResponse(instance.ProductVersion, answer, request.RequestsMars), ct);
        _mars = request.RequestsMars;
        if (answer == PreLoginEncryption.Required && request.Encryption == PreLoginEncryption.NotSupported)
        {
            // Force Encryption meets a client without TLS: SQL Server answers ENCRYPT_REQ and the client ends.
            Transcript.Add(TranscriptKinds.Encryption, "required, client does not support it");
            return false;
        }

        var loginOnlyTls = false;
        var mode = strict ? "strict" : "none";
        if (!strict && answer != PreLoginEncryption.NotSupported)
        {
            await StartTlsInPreLoginAsync(ct);
            loginOnlyTls = answer == PreLoginEncryption.Off;
            mode = loginOnlyTls ? "login-only" : "full";
        }
        Transcript.Add(TranscriptKinds.Encryption, mode);

        var loginMessage = await _transport.ReadMessageAsync(ct);
        if (loginMessage is null) return false;
        if (loginMessage.Type != TdsPacketType.Login7)
            throw new TdsProtocolException($"Expected LOGIN7, got packet type 0x{loginMessage.Type:X2}.");
        if (loginOnlyTls) _transport.Stream = _network; // TLS protected the login only; the rest is plain.

        return await LoginAsync(Login7.Parse(loginMessage.Payload), ct);
    }

    /// <summary>TDS 8.0 clients open with a TLS ClientHello; everyone else with a PRELOGIN packet.</summary>
    async Task<bool> StartsWithTlsAsync(CancellationToken ct)
    {
        var first = new byte[1];
        var n = await socket.ReceiveAsync(first, SocketFlags.Peek, ct);
        return n == 1 && first[0] == TlsHandshakeRecord;
    }

    /// <summary>
    /// The server's side of [MS-TDS] 2.2.6.5's encryption table. A server that requires encryption answers ENCRYPT_REQ
    /// even to a client that does not support it, which then ends the connection.
    /// </summary>
    byte ChooseEncryption(byte client) => (Scenario.Encryption, client) switch
    {
        (EncryptionSupport.NotSupported, _) => PreLoginEncryption.NotSupported,
        (EncryptionSupport.Optional, PreLoginEncryption.Off) => PreLoginEncryption.Off,
        (EncryptionSupport.Optional, PreLoginEncryption.NotSupported) => PreLoginEncryption.NotSupported,
        (EncryptionSupport.Optional, _) => PreLoginEncryption.On,
        (_, PreLoginEncryption.On) => PreLoginEncryption.On,
        _ => PreLoginEncryption.Required,
    };

    async Task StartTlsInPreLoginAsync(CancellationToken ct)
    {
        var wrapper = new TlsOverTdsStream(_network);
        var ssl = new SslStream(wrapper, leaveInnerStreamOpen: true);
        // TLS 1.2, as SQL Server negotiates inside PRELOGIN; a TLS 1.3 session ticket after the handshake would
        // arrive while the client still expects PRELOGIN framing.
        await ssl.AuthenticateAsServerAsync(new SslServerAuthenticationOptions
        {
            ServerCertificate = ServerCertificate.Instance,
            EnabledSslProtocols = SslProtocols.Tls12,
        }, ct);
        wrapper.HandshakeComplete = true;
        _transport.Stream = ssl;
    }

    async Task<bool> LoginAsync(Login7 login, CancellationToken ct)
    {
        var response = new PayloadWriter();
        var tokens = new TokenWriter(response, instance.ServerName, tdsVersion: ClientTdsVersions.Agreed(login.TdsVersion));
        var loginName = login.UserName;
        ScenarioLogin? account;
        if (login.IntegratedSecurity)
        {
            var accepted = await AcceptSspiAsync(login.Sspi, ct);
            if (accepted is not var (principal, lastToken))
            {
                // SQL Server's answer when the SSPI handshake itself fails (no usable ticket, a ticket for another key).
                tokens.Message(new SqlMessage(18452, 1, 14, "Login failed. The login is from an untrusted domain and cannot be used with Integrated authentication."));
                tokens.Done(TokenWriter.DoneError, 0, 0);
                await _transport.WriteMessageAsync(TdsPacketType.TabularResult, response.Written, ct);
                return false;
            }
            loginName = WindowsLoginName(principal);
            account = instance.FindWindowsLogin(loginName);
            if (account is not null && lastToken is { Length: > 0 }) tokens.Sspi(lastToken);
        }
        else account = instance.FindLogin(login.UserName, login.Password);

        if (account is null || Scenario.Faults.ErrorNumber == 18456)
        {
            Transcript.Add(TranscriptKinds.LoginFailed, loginName);
            tokens.Message(new SqlMessage(18456, 1, 14, $"Login failed for user '{loginName}'."));
            tokens.Done(TokenWriter.DoneError, 0, 0);
            await _transport.WriteMessageAsync(TdsPacketType.TabularResult, response.Written, ct);
            return false;
        }

        _tdsVersion = ClientTdsVersions.Agreed(login.TdsVersion);
        Transcript.Add(TranscriptKinds.Login, $"{account.Name} app={login.AppName} tds=0x{_tdsVersion:X8}");
        var database = string.IsNullOrEmpty(login.Database) ? "master" : login.Database;
        _session = new SessionContext(Scenario, instance.Profile, account, database)
        {
            TraceFilesRead = files => Transcript.Add(TranscriptKinds.TraceRead, files),
        };
        _loginDatabase = database;
        tokens.EnvChange(1, database, "master");
        tokens.Message(new SqlMessage(5701, 2, 0, $"Changed database context to '{database}'."));
        tokens.CollationEnvChange();
        tokens.EnvChange(2, "us_english", "");
        tokens.Message(new SqlMessage(5703, 1, 0, "Changed language setting to us_english."));
        tokens.LoginAck(instance.ProductVersion);
        if (login.FeatureIds.Count > 0) tokens.FeatureExtAckNone();
        var packetSize = Math.Clamp(login.PacketSize is 0 ? 4096 : login.PacketSize, 512, 32767);
        tokens.EnvChange(4, packetSize.ToString(), "4096");
        tokens.Done(TokenWriter.DoneFinal, 0, 0);
        await _transport.WriteMessageAsync(TdsPacketType.TabularResult, response.Written, ct);
        _transport.PacketSize = packetSize;
        return true;
    }

    /// <summary>
    /// The server's side of integrated security ([MS-TDS] 3.3.5.1): the client's first token comes in LOGIN7. While the
    /// context wants another leg (NTLM), the server sends its token as an SSPI token and reads the client's SSPI
    /// message (0x11). A last token of a completed context (Kerberos' mutual authentication) goes out with the login
    /// response instead, as SQL Server sends it: the client answers it with nothing. The keytab is GSSAPI's default
    /// acceptor keytab (KRB5_KTNAME) of the simulator's process.
    /// </summary>
    /// <returns>The authenticated principal (user@REALM) and the last token, or null when the handshake failed.</returns>
    async Task<(string Principal, byte[]? LastToken)?> AcceptSspiAsync(byte[] clientToken, CancellationToken ct)
    {
        using var negotiate = new NegotiateAuthentication(new NegotiateAuthenticationServerOptions());
        var incoming = clientToken;
        for (var leg = 0; leg < MaxSspiLegs; leg++)
        {
            var outgoing = negotiate.GetOutgoingBlob(incoming, out var status);
            if (status == NegotiateAuthenticationStatusCode.Completed) return (negotiate.RemoteIdentity.Name!, outgoing);
            if (status != NegotiateAuthenticationStatusCode.ContinueNeeded || outgoing is not { Length: > 0 })
            {
                Transcript.Add(TranscriptKinds.LoginFailed, $"SSPI handshake failed: {status}");
                return null;
            }
            var answer = new PayloadWriter();
            new TokenWriter(answer, instance.ServerName).Sspi(outgoing);
            await _transport.WriteMessageAsync(TdsPacketType.TabularResult, answer.Written, ct);
            var reply = await _transport.ReadMessageAsync(ct);
            if (reply is null) return null;
            if (reply.Type != TdsPacketType.Sspi)
                throw new TdsProtocolException($"Expected an SSPI message, got packet type 0x{reply.Type:X2}.");
            incoming = reply.Payload;
        }
        Transcript.Add(TranscriptKinds.LoginFailed, $"SSPI handshake needed more than {MaxSspiLegs} legs");
        return null;
    }

    /// <summary>
    /// collector@IFI.TEST is IFI\collector, as Active Directory names the account of a principal (the realm's first
    /// label standing for the NetBIOS domain name); a name without a realm is kept as it is.
    /// </summary>
    internal static string WindowsLoginName(string principal)
    {
        var at = principal.LastIndexOf('@');
        if (at <= 0) return principal;
        var realm = principal[(at + 1)..];
        var domain = realm.Split('.')[0];
        return $"{domain}\\{principal[..at]}";
    }

    /// <summary>
    /// After a login that negotiated MARS, every session the client opens over SMP gets its own request loop; they
    /// share the login's session (database, transaction count, prepared statements), as MARS sessions do.
    /// </summary>
    Task ServeMarsSessionsAsync(CancellationToken ct) =>
        new SmpMultiplexer(_transport.Stream, (sid, stream, token) =>
        {
            Transcript.Add(TranscriptKinds.MarsSession, sid.ToString(System.Globalization.CultureInfo.InvariantCulture));
            return ServeRequestsAsync(new TdsTransport(stream) { PacketSize = _transport.PacketSize }, token);
        }).RunAsync(ct);

    async Task ServeRequestsAsync(TdsTransport transport, CancellationToken ct)
    {
        Task<TdsMessage?>? pendingRead = null;
        while (true)
        {
            var message = await (pendingRead ?? transport.ReadMessageAsync(ct));
            pendingRead = null;
            if (message is null) return;
            switch (message.Type)
            {
                case TdsPacketType.SqlBatch or TdsPacketType.Rpc:
                    pendingRead = await RunRequestAsync(transport, message, ct);
                    break;
                case TdsPacketType.Attention:
                    // An attention after the results were complete still gets its acknowledgement.
                    Transcript.Add(TranscriptKinds.Attention, "after completion");
                    await WriteAttentionAckAsync(transport, ct);
                    break;
                case TdsPacketType.TransactionManager:
                    await WriteResultAsync(transport, RunTransactionManagerRequest(message.Payload), false, ct);
                    break;
                default:
                    throw new TdsProtocolException($"Unexpected packet type 0x{message.Type:X2} after login.");
            }
        }
    }

    /// <summary>
    /// Runs one request while still listening, so that an ATTENTION sent during a slow query cancels it.
    /// Returns a read that is already under way, to be continued by the request loop.
    /// </summary>
    async Task<Task<TdsMessage?>?> RunRequestAsync(TdsTransport transport, TdsMessage message, CancellationToken ct)
    {
        if (message.ResetsConnection)
        {
            // The session as the login left it ([MS-TDS] 2.2.3.1.2, RESETCONNECTION): its database, no transaction.
            Transcript.Add(TranscriptKinds.Reset, "reset connection");
            _session = _session! with { Database = _loginDatabase, TransactionCount = 0, TransactionDescriptor = 0 };
        }
        var isRpc = message.Type == TdsPacketType.Rpc;
        RpcPlan plan;
        try
        {
            plan = Decode(message);
        }
        catch (TdsProtocolException e) when (isRpc)
        {
            // The whole request was read: answer it with SQL Server's RPC stream error, keep the connection.
            Transcript.Add(TranscriptKinds.ProtocolError, e.Message);
            await WriteResultAsync(transport, BatchResult.Of(new SqlMessage(8009, 1, 16,
                $"The incoming tabular data stream (TDS) remote procedure call (RPC) protocol stream is incorrect. {e.Message}")), true, ct);
            return null;
        }
        // A procedure that runs no statement (sp_prepare, sp_unprepare) is logged by its name.
        Transcript.Add(isRpc ? TranscriptKinds.Rpc : TranscriptKinds.Batch, plan.Sql.Length > 0 || !isRpc ? plan.Sql : plan.Procedure);

        using var attention = CancellationTokenSource.CreateLinkedTokenSource(ct);
        var nextRead = transport.ReadMessageAsync(ct);
        var delay = Task.Delay(Math.Max(0, Scenario.Faults.QueryDelayMs), attention.Token);
        var first = await Task.WhenAny(delay, nextRead);
        if (first == nextRead)
        {
            var next = await nextRead;
            if (next?.Type != TdsPacketType.Attention)
                throw new TdsProtocolException("The client sent a new request before the previous one finished.");
            await attention.CancelAsync();
            Transcript.Add(TranscriptKinds.Attention, "cancelled a running request");
            await WriteAttentionAckAsync(transport, ct);
            return null;
        }

        try
        {
            var result = plan.Error is { } error ? BatchResult.Of(error) : engine.Execute(plan.Sql, plan.Parameters, _session!);
            await WriteResultAsync(transport, result, isRpc, ct, plan.Outputs);
        }
        catch (Exception e) when (IsSimulatorBug(e))
        {
            // Results are encoded whole before anything is written, so the wire is still clean: answer with an error
            // the client shows, instead of dropping the connection with nothing but a "transport-level error".
            Transcript.Add(TranscriptKinds.SimulatorError, e.ToString());
            await WriteResultAsync(transport, BatchResult.Of(new SqlMessage(50000, 1, 16, $"Simulator bug: {e.Message}")), isRpc, ct);
        }
        return nextRead;
    }

    /// <summary>
    /// A transaction manager request ([MS-TDS] 2.2.6.9; SqlConnection.BeginTransaction sends one): begin, commit and
    /// rollback act as the statements do; save points and distributed transactions change nothing observable.
    /// </summary>
    BatchResult RunTransactionManagerRequest(byte[] payload)
    {
        const ushort BeginXact = 5, CommitXact = 7, RollbackXact = 8;
        var reader = new PayloadReader(payload);
        if (_tdsVersion >= ClientTdsVersions.Tds72) RpcRequest.SkipAllHeaders(reader);
        TransactionAction? action = reader.UInt16() switch
        {
            BeginXact => TransactionAction.Begin,
            CommitXact => TransactionAction.Commit,
            RollbackXact => TransactionAction.Rollback,
            _ => null,
        };
        Transcript.Add(TranscriptKinds.Batch, $"transaction manager: {action?.ToString() ?? "other"}");
        if (action is not { } known) return BatchResult.Of(new StatementDone());
        try
        {
            return BatchResult.Of(SessionStatements.Transaction(new TransactionStatement(known, 1), _session!));
        }
        catch (QueryException e)
        {
            return new BatchResult(e.Messages);
        }
    }

    static bool IsSimulatorBug(Exception e) =>
        e is not (IOException or SocketException or AuthenticationException or OperationCanceledException
            or ObjectDisposedException or TdsProtocolException);

    RpcPlan Decode(TdsMessage message)
    {
        // ALL_HEADERS came with TDS 7.2: a 7.1 client's batch is the SQL text alone.
        var allHeaders = _tdsVersion >= ClientTdsVersions.Tds72;
        if (message.Type == TdsPacketType.SqlBatch) return RpcPlan.Batch(RpcRequest.ParseSqlBatch(message.Payload, allHeaders));
        return _procedures.Plan(RpcRequest.Parse(message.Payload, allHeaders));
    }

    async Task WriteResultAsync(TdsTransport transport, BatchResult result, bool isRpc, CancellationToken ct, IReadOnlyList<RpcOutput>? outputs = null)
    {
        var payload = new PayloadWriter(1024);
        var tokens = new TokenWriter(payload, instance.ServerName, transport.PacketSize, _tdsVersion);
        var items = result.Items;
        for (var i = 0; i < items.Count; i++)
        {
            var more = i < items.Count - 1 || isRpc ? TokenWriter.DoneMore : TokenWriter.DoneFinal;
            switch (items[i])
            {
                case ResultSet set:
                    tokens.ColumnMetadata(set.Columns);
                    if (Scenario.Faults.ResetMidResult)
                    {
                        await AbortMidResultAsync(transport, payload, ct);
                        return;
                    }
                    foreach (var row in set.Rows) tokens.Row(set.Columns, row);
                    tokens.Done((ushort)(more | TokenWriter.DoneCount), TokenWriter.CurCmdSelect, set.Rows.Count, inProc: isRpc);
                    break;
                case SqlMessage { IsError: true } error:
                    tokens.Message(error);
                    // SQL Server follows a failed statement's error with its DONE carrying the error bit.
                    if (i + 1 >= items.Count || items[i + 1] is not SqlMessage)
                        tokens.Done((ushort)(more | TokenWriter.DoneError), TokenWriter.CurCmdSelect, 0, inProc: isRpc);
                    break;
                case SqlMessage info:
                    tokens.Message(info);
                    break;
                case DatabaseChanged change:
                    tokens.EnvChange(1, change.Database, change.Previous);
                    tokens.Message(new SqlMessage(5701, 1, 0, $"Changed database context to '{change.Database}'."));
                    tokens.Done(more, 0, 0, inProc: isRpc);
                    break;
                case TransactionChanged change:
                    // Transaction ENVCHANGEs came with TDS 7.2; an older client keeps no descriptor.
                    if (_tdsVersion >= ClientTdsVersions.Tds72) tokens.TransactionEnvChange(change.Event, change.Descriptor);
                    tokens.Done(more, 0, 0, inProc: isRpc);
                    break;
                case StatementDone done:
                    tokens.Done(done.RowCount is null ? more : (ushort)(more | TokenWriter.DoneCount), 0, done.RowCount ?? 0, inProc: isRpc);
                    break;
            }
        }
        if (items.Count == 0 && !isRpc) tokens.Done(TokenWriter.DoneFinal, 0, 0);
        if (isRpc) tokens.ProcedureEnd(items.Any(item => item is SqlMessage { IsError: true }), outputs ?? []);
        await transport.WriteMessageAsync(TdsPacketType.TabularResult, payload.Written, ct);
    }

    /// <summary>The "socket reset mid-result" fault: half a result on the wire, then a TCP reset.</summary>
    async Task AbortMidResultAsync(TdsTransport transport, PayloadWriter partial, CancellationToken ct)
    {
        var half = partial.Written[..Math.Max(1, partial.Length / 2)];
        var packet = new byte[TdsTransport.HeaderLength + half.Length];
        packet[0] = TdsPacketType.TabularResult;
        packet[1] = 0; // not the end of the message
        System.Buffers.Binary.BinaryPrimitives.WriteUInt16BigEndian(packet.AsSpan(2), (ushort)(packet.Length + 64));
        half.Span.CopyTo(packet.AsSpan(TdsTransport.HeaderLength));
        await transport.Stream.WriteAsync(packet, ct);
        await transport.Stream.FlushAsync(ct);
        socket.LingerState = new LingerOption(true, 0);
        socket.Close();
    }

    async Task WriteAttentionAckAsync(TdsTransport transport, CancellationToken ct)
    {
        var payload = new PayloadWriter(16);
        new TokenWriter(payload, instance.ServerName, tdsVersion: _tdsVersion).Done(TokenWriter.DoneAttention, 0, 0);
        await transport.WriteMessageAsync(TdsPacketType.TabularResult, payload.Written, ct);
    }
}
