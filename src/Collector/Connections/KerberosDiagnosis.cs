using System.Net;
using System.Runtime.InteropServices;
using System.Text;
using IfiDashboard.Shared.Inventory;

namespace IfiDashboard.Collector.Connections;

/// <summary>
/// Says why integrated security failed on Linux, where SqlClient reports every GSSAPI failure as "The target principal
/// name is incorrect. Cannot generate SSPI context" (through NegotiateAuthentication, whose status codes make no
/// ticket, an expired ticket and an unknown SPN alike). It asks GSSAPI itself for a Kerberos ticket to the SPN
/// SqlClient asks for, in the collector's own process (so with its KRB5CCNAME, KRB5_CLIENT_KTNAME and KRB5_CONFIG),
/// and turns Kerberos' answer into what to fix. Nothing is sent to the instance.
/// </summary>
public static class KerberosDiagnosis
{
    const string Gssapi = "libgssapi_krb5.so.2";
    const uint GssNoCred = 0x00070000, GssCredentialsExpired = 0x000B0000, GssRoutineErrorMask = 0x00FF0000;
    const int GssCodeStatus = 1, MechanismCodeStatus = 2;
    /// <summary>Loaded once, for the process's lifetime, as .NET's own GSSAPI shim does; zero when it is not installed.</summary>
    static readonly Lazy<IntPtr> Library = new(() => NativeLibrary.TryLoad(Gssapi, out var handle) ? handle : IntPtr.Zero);
    // Kerberos error table codes (MIT krb5's krb5_err.et) as GSSAPI gives them in the minor status.
    const uint ServerNotInDatabase = 0x96C73A07, TicketExpired = 0x96C73A20, ClientNotInDatabase = 0x96C73A06;

    /// <summary>True for SqlClient's report that it could not make the integrated security token.</summary>
    public static bool IsSspiFailure(Exception e) =>
        e.Message.Contains("Cannot generate SSPI context", StringComparison.OrdinalIgnoreCase);

    /// <summary>The SPN SqlClient asks a ticket for: MSSQLSvc/ the name DNS gives the host, then :port or :instance.</summary>
    public static string ServicePrincipalName(InstanceRegistration instance)
    {
        string fullName;
        try
        {
            fullName = Dns.GetHostEntry(instance.Host).HostName;
        }
        catch (Exception e) when (e is System.Net.Sockets.SocketException or ArgumentException)
        {
            fullName = instance.Host;
        }
        var suffix = instance.Port?.ToString() ?? (instance.InstanceName is { Length: > 0 } name ? name : "1433");
        return $"MSSQLSvc/{fullName}:{suffix}";
    }

    /// <summary>What to fix, for an instance whose integrated security login failed before reaching the server.</summary>
    public static string Explain(InstanceRegistration instance, string collectorName)
    {
        var spn = ServicePrincipalName(instance);
        if (!OperatingSystem.IsLinux())
            return $"Integrated security could not get a Kerberos ticket for {spn}: check that the SPN is registered " +
                   $"(setspn -L <SQL Server service account>; setspn -S {spn} <account>) and that collector '{collectorName}' runs under its domain account.";
        var (major, minor, reason) = TryGetTicket(spn);
        var routine = major & GssRoutineErrorMask;
        if (minor == ServerNotInDatabase)
            return $"The KDC has no service principal {spn} ({reason}). Register the SPN for the SQL Server service " +
                   $"account (setspn -S {spn} <account>), or register the instance by the host name its SPN carries.";
        if (minor == TicketExpired || routine == GssCredentialsExpired)
            return $"The Kerberos ticket of collector '{collectorName}' has expired ({reason}). Let GSSAPI renew it from " +
                   "the collector's keytab (KRB5_CLIENT_KTNAME=<keytab>), or keep the ticket cache fresh with k5start -K.";
        if (routine == GssNoCred || minor == ClientNotInDatabase)
            return $"Collector '{collectorName}' has no Kerberos ticket ({reason}). Give its account a keytab " +
                   "(KRB5_CLIENT_KTNAME=<keytab>) or a ticket cache (KRB5CCNAME, kinit -k -t <keytab> <principal>), and a " +
                   "krb5.conf naming the realm (KRB5_CONFIG).";
        return major == 0
            ? $"Collector '{collectorName}' got a Kerberos ticket for {spn} when asked again: the KDC may have been out of reach for a " +
              "moment (the next poll tries again), or the instance's name resolves differently for SqlClient; check the SPN with kvno."
            : $"Kerberos failed for {spn} ({reason}): check the collector's krb5.conf (KRB5_CONFIG), its ticket and the SPN.";
    }

    /// <returns>GSSAPI's major and minor status for a context to the SPN, and GSSAPI's own words for the failure.</returns>
    static (uint Major, uint Minor, string Reason) TryGetTicket(string spn)
    {
        var library = Library.Value;
        if (library == IntPtr.Zero)
            return (GssNoCred, 0, $"GSSAPI is not installed: {Gssapi} could not be loaded (apt-get install libgssapi-krb5-2)");
        try
        {
            var nameType = Marshal.ReadIntPtr(NativeLibrary.GetExport(library, "GSS_KRB5_NT_PRINCIPAL_NAME"));
            var mechanism = Marshal.ReadIntPtr(NativeLibrary.GetExport(library, "gss_mech_krb5"));
            var nameBytes = Encoding.UTF8.GetBytes(spn);
            var name = IntPtr.Zero;
            var context = IntPtr.Zero;
            var pinned = GCHandle.Alloc(nameBytes, GCHandleType.Pinned);
            try
            {
                var buffer = new GssBuffer { Length = (nuint)nameBytes.Length, Value = pinned.AddrOfPinnedObject() };
                var major = gss_import_name(out var minor, ref buffer, nameType, out name);
                if (major == 0)
                {
                    var output = default(GssBuffer);
                    major = gss_init_sec_context(out minor, IntPtr.Zero, ref context, name, mechanism, 0, 0, IntPtr.Zero,
                        IntPtr.Zero, IntPtr.Zero, ref output, IntPtr.Zero, IntPtr.Zero);
                    gss_release_buffer(out _, ref output);
                }
                if (major == 0 || (major & GssRoutineErrorMask) == 0) return (0, 0, "");
                var reason = minor != 0 ? Display(minor, MechanismCodeStatus, mechanism) : Display(major, GssCodeStatus, IntPtr.Zero);
                return (major, minor, reason);
            }
            finally
            {
                if (context != IntPtr.Zero) gss_delete_sec_context(out _, ref context, IntPtr.Zero);
                if (name != IntPtr.Zero) gss_release_name(out _, ref name);
                pinned.Free();
            }
        }
        catch (Exception e) when (e is DllNotFoundException or EntryPointNotFoundException or BadImageFormatException)
        {
            return (GssNoCred, 0, $"GSSAPI could not be used: {e.Message}");
        }
    }

    static string Display(uint status, int type, IntPtr mechanism)
    {
        var messageContext = 0u;
        var text = default(GssBuffer);
        if (gss_display_status(out _, status, type, mechanism, ref messageContext, ref text) != 0) return $"GSSAPI status 0x{status:X8}";
        try
        {
            return Marshal.PtrToStringUTF8(text.Value, (int)text.Length);
        }
        finally
        {
            gss_release_buffer(out _, ref text);
        }
    }

    [StructLayout(LayoutKind.Sequential)]
    struct GssBuffer
    {
        public nuint Length;
        public IntPtr Value;
    }

#pragma warning disable SYSLIB1054 // DllImport keeps the project free of unsafe code; every type here is blittable.
    [DllImport(Gssapi)]
    static extern uint gss_import_name(out uint minor, ref GssBuffer name, IntPtr nameType, out IntPtr output);

    [DllImport(Gssapi)]
    static extern uint gss_init_sec_context(out uint minor, IntPtr credential, ref IntPtr context, IntPtr target, IntPtr mechanism,
        uint flags, uint lifetime, IntPtr channelBindings, IntPtr inputToken, IntPtr actualMechanism, ref GssBuffer output,
        IntPtr returnedFlags, IntPtr timeReceived);

    [DllImport(Gssapi)]
    static extern uint gss_display_status(out uint minor, uint status, int statusType, IntPtr mechanism, ref uint messageContext, ref GssBuffer text);

    [DllImport(Gssapi)]
    static extern uint gss_release_buffer(out uint minor, ref GssBuffer buffer);

    [DllImport(Gssapi)]
    static extern uint gss_release_name(out uint minor, ref IntPtr name);

    [DllImport(Gssapi)]
    static extern uint gss_delete_sec_context(out uint minor, ref IntPtr context, IntPtr outputToken);
#pragma warning restore SYSLIB1054
}
