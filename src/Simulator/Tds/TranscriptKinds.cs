namespace IfiDashboard.Simulator.Tds;

/// <summary>The kinds of transcript entries, for assertions in tests.</summary>
public static class TranscriptKinds
{
    public const string Encryption = "encryption";
    public const string Login = "login";
    public const string LoginFailed = "login-failed";
    public const string Batch = "batch";
    public const string Rpc = "rpc";
    public const string Attention = "attention";
    public const string Reset = "reset";
    public const string ProtocolError = "protocol-error";
    public const string Disconnected = "disconnected";
    /// <summary>No completed login within <c>LoginTimeoutSeconds</c> of connecting: the server closed the connection.</summary>
    public const string LoginTimeout = "login-timeout";
    public const string Fault = "fault";
    /// <summary>A MARS session opened (SMP SYN) on a connection that negotiated MARS; the text is its session id.</summary>
    public const string MarsSession = "mars-session";
    /// <summary>The default trace files an fn_trace_gettable read, oldest first, by file name.</summary>
    public const string TraceRead = "trace-read";
    /// <summary>The engine or the encoder failed on a request: a bug in the simulator, answered as Msg 50000.</summary>
    public const string SimulatorError = "simulator-error";
}
