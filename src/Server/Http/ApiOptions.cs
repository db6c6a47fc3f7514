namespace IfiDashboard.Server.Http;

/// <summary>Section "Api": the REST API under /api/v1.</summary>
public sealed class ApiOptions
{
    public const string Section = "Api";
    public const int MinBootstrapKeyLength = 32;

    /// <summary>
    /// A key accepted with the <c>admin</c> scope only, for first set-up: create real keys with it, then remove it.
    /// Unset (the default) means no such key.
    /// </summary>
    public string? BootstrapAdminKey { get; set; }

    public ApiRateLimitOptions RateLimit { get; set; } = new();

    /// <summary>Largest accepted body of <c>PUT /instances/{externalKey}</c> and of key creation.</summary>
    public int MaxBodyBytes { get; set; } = 64 * 1024;

    /// <summary>Largest accepted body of <c>POST /instances/sync</c>: about 10,000 instances at the default.</summary>
    public int MaxSyncBodyBytes { get; set; } = 4 * 1024 * 1024;

    public int MaxSyncInstances { get; set; } = 20_000;
}

/// <summary>A fixed window per API key: at most <see cref="PermitLimit"/> requests every <see cref="WindowSeconds"/>.</summary>
public sealed class ApiRateLimitOptions
{
    public int PermitLimit { get; set; } = 600;
    public int WindowSeconds { get; set; } = 60;
}
