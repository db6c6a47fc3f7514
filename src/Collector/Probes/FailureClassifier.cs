using System.Net.Sockets;
using System.Security.Authentication;
using IfiDashboard.Collector.Connections;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Data.SqlClient;

namespace IfiDashboard.Collector.Probes;

/// <summary>
/// Maps what SqlClient throws to the outcome classes a DBA acts on (docs/sqlserver-reference.md section 9).
/// Messages come from the exception text, which SqlClient never fills with the password.
/// </summary>
public static class FailureClassifier
{
    static readonly HashSet<int> LoginFailures = [18456, 18452, 18470, 18486, 18487, 18488, 4060];
    // 15003: sp_readerrorlog's own check ("Only members of the securityadmin role ...").
    static readonly HashSet<int> PermissionFailures = [229, 297, 300, 8189, 15003];
    static readonly HashSet<int> TransportFailures = [10053, 10054, 10060, 10061, 64, 121, 233, 20, 53, 26, 35, 40, 11001, 0];

    /// <param name="requiredPermission">What to grant if this probe is refused, e.g. "VIEW SERVER STATE".</param>
    /// <param name="login">The collector's login there, named in the grant; null when it is not a SQL login.</param>
    public static ProbeOutcome Classify(string probe, Exception exception, string? requiredPermission = null, string? login = null)
    {
        switch (exception)
        {
            case MissingCredentialException missing:
                return new(probe, OutcomeClass.LoginFailed, missing.Message);
            case ConnectionPolicyException refused:
                return new(probe, refused.Outcome, refused.Message);
            case OperationCanceledException:
                return new(probe, OutcomeClass.Timeout, "The poll did not finish before its deadline.");
            case TimeoutException:
                return new(probe, OutcomeClass.Timeout, FirstLine(exception.Message));
            case SqlException sql:
                return ClassifySql(probe, sql, requiredPermission, login);
            case AuthenticationException:
                return new(probe, OutcomeClass.TlsError, exception.Message);
            case SocketException or IOException:
                return new(probe, OutcomeClass.Unreachable, exception.Message);
            case InvalidOperationException when exception.Message.Contains("connection", StringComparison.OrdinalIgnoreCase):
                return new(probe, OutcomeClass.Unreachable, exception.Message);
            default:
                return new(probe, OutcomeClass.ProtocolError, $"{exception.GetType().Name}: {exception.Message}");
        }
    }

    public static bool IsPermissionFailure(SqlException e) => e.Errors.Cast<SqlError>().Any(x => PermissionFailures.Contains(x.Number));

    static ProbeOutcome ClassifySql(string probe, SqlException e, string? requiredPermission, string? login)
    {
        var numbers = e.Errors.Cast<SqlError>().Select(x => x.Number).ToList();
        var first = numbers.FirstOrDefault(e.Number);
        if (IsTls(e))
            return new(probe, OutcomeClass.TlsError, FirstLine(e.Message), first);
        // Integrated security failed on the collector's side (no ticket, an expired one, an unknown SPN): a login
        // failure, although SqlClient reports it with error number 0, which would otherwise read as a network error.
        if (KerberosDiagnosis.IsSspiFailure(e))
            return new(probe, OutcomeClass.LoginFailed, FirstLine(e.Message), first);
        if (numbers.Any(LoginFailures.Contains))
            return new(probe, OutcomeClass.LoginFailed, FirstLine(e.Message), numbers.First(LoginFailures.Contains));
        if (numbers.Any(PermissionFailures.Contains))
        {
            var grant = requiredPermission is null ? "" : $" Grant {requiredPermission} to {(login is null ? "the collector's login" : $"[{login}]")}.";
            return new(probe, OutcomeClass.PermissionMissing, FirstLine(e.Message) + grant, numbers.First(PermissionFailures.Contains));
        }
        if (numbers.Contains(-2))
            return new(probe, OutcomeClass.Timeout, FirstLine(e.Message), -2);
        if (numbers.Contains(207))
            return new(probe, OutcomeClass.BuildTooOld, FirstLine(e.Message), 207);
        if (e.Class >= 20 || numbers.Any(TransportFailures.Contains) || e.InnerException is SocketException or IOException)
            return new(probe, OutcomeClass.Unreachable, FirstLine(e.Message), first);
        return new(probe, OutcomeClass.ProtocolError, FirstLine(e.Message), first);
    }

    static bool IsTls(SqlException e) =>
        e.InnerException is AuthenticationException
        || e.Message.Contains("certificate", StringComparison.OrdinalIgnoreCase)
        || e.Message.Contains("does not support encryption", StringComparison.OrdinalIgnoreCase)
        || e.Message.Contains("SSL Provider", StringComparison.OrdinalIgnoreCase);

    static string FirstLine(string message) => message.Split('\n', 2)[0].Trim();
}
