using IfiDashboard.Server.Store;
using Microsoft.AspNetCore.DataProtection;
using Microsoft.AspNetCore.DataProtection.KeyManagement;
using Microsoft.AspNetCore.DataProtection.Repositories;
using Microsoft.Extensions.Options;
using Microsoft.Data.Sqlite;

namespace IfiDashboard.Server.Security;

/// <summary>
/// Where the server keeps the keys that sign its antiforgery tokens (and, with sign-in, its session cookies):
/// whoever reads them can forge both. <c>DataProtection:KeysDirectory</c>, by default a <c>keys</c> folder beside
/// the SQLite store, is created owner-only (0700). Servers that share a PostgreSQL store must share one folder
/// (docs/security.md); without the setting they keep ASP.NET Core's per-user default.
/// </summary>
public static class DataProtectionKeys
{
    public const string KeysDirectoryKey = "DataProtection:KeysDirectory";

    public static IServiceCollection AddIfiDataProtection(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddDataProtection().SetApplicationName("IfiDashboard");
        // Resolved when the key ring is first used, from the validated store options, not while services register.
        services.AddOptions<KeyManagementOptions>().Configure<IOptions<StoreOptions>, ILoggerFactory>((options, store, loggers) =>
        {
            if (KeysFolder(configuration[KeysDirectoryKey], store.Value) is not { } folder) return;
            PrivateFiles.EnsureFolder(folder);
            options.XmlRepository = new FileSystemXmlRepository(new DirectoryInfo(folder), loggers);
        });
        return services;
    }

    internal static string? KeysFolder(string? configured, StoreOptions store)
    {
        if (configured is { Length: > 0 }) return Path.GetFullPath(configured);
        if (!store.IsSqlite) return null;
        var dataSource = new SqliteConnectionStringBuilder(store.ConnectionString).DataSource;
        if (string.IsNullOrEmpty(dataSource) || dataSource == ":memory:" || dataSource.StartsWith("file:", StringComparison.OrdinalIgnoreCase))
            return null;
        return Path.Combine(Path.GetDirectoryName(Path.GetFullPath(dataSource)) ?? ".", "keys");
    }
}
