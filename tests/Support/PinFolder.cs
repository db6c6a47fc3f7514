using System.Diagnostics;
using IfiDashboard.Simulator.Hosting;

namespace IfiDashboard.Tests.Support;

/// <summary>
/// A credential's folder of pinned certificates (<c>Credentials:&lt;name&gt;:CertificateFolder</c>) in a temporary
/// folder, holding the simulator's certificate: the one certificate the collector then trusts for that credential.
/// </summary>
public sealed class PinFolder : IDisposable
{
    public string Folder { get; } = Directory.CreateTempSubdirectory("ifi-pins-").FullName;

    public PinFolder() => File.WriteAllText(SimulatorCertificate, ServerCertificate.ExportPem());

    public string SimulatorCertificate => Path.Combine(Folder, "simulator.pem");

    /// <summary>The settings with this folder as the credential's CertificateFolder.</summary>
    public Dictionary<string, string?> Configure(Dictionary<string, string?> settings, string credential)
    {
        settings[$"Credentials:{credential}:CertificateFolder"] = Folder;
        return settings;
    }

    /// <summary>A named pipe in the folder: opening it for reading would wait for a writer that never comes.</summary>
    public string Fifo(string name = "pin.fifo")
    {
        var path = Path.Combine(Folder, name);
        using var mkfifo = Process.Start(new ProcessStartInfo("mkfifo", [path]) { UseShellExecute = false })!;
        mkfifo.WaitForExit();
        Assert.Equal(0, mkfifo.ExitCode);
        return path;
    }

    public void Dispose() => Directory.Delete(Folder, recursive: true);
}
