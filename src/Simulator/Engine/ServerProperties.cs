using System.Globalization;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine;

/// <summary>
/// SERVERPROPERTY: every value is a sql_variant whose base type is what SQL Server uses (nvarchar for strings, int for
/// flags and ids). NULL where the real server answers NULL, including for property names it does not know.
/// </summary>
internal static class ServerProperties
{
    public static VariantValue? Get(string property, SessionContext session)
    {
        var instance = session.Instance;
        var profile = session.Profile;
        var version = Version.Parse(profile.ProductVersion);
        return property.Trim().ToUpperInvariant() switch
        {
            "PRODUCTVERSION" => Text(profile.ProductVersion),
            "PRODUCTLEVEL" => Text(profile.ProductLevel),
            "PRODUCTUPDATELEVEL" => Text(profile.ProductUpdateLevel),
            "PRODUCTMAJORVERSION" => Text(Invariant(version.Major)),
            "PRODUCTMINORVERSION" => Text(Invariant(version.Minor)),
            "PRODUCTBUILD" => Text(Invariant(version.Build)),
            "EDITION" => Text(ServerIdentity.Edition(session)),
            "ENGINEEDITION" => Number(ServerIdentity.EngineEdition(session)),
            "MACHINENAME" => Text(ServerIdentity.MachineName(instance)),
            "SERVERNAME" => Text(ServerIdentity.ServerName(instance)),
            "INSTANCENAME" => Text(instance.InstanceName),
            "ISCLUSTERED" => Number(instance.ClusterNodes.Count > 0 ? 1 : 0),
            "ISHADRENABLED" => Number(instance.AvailabilityGroups.Count > 0 ? 1 : 0),
            "PROCESSID" => Number(instance.ProcessId),
            // PathSeparator exists from 2017 (major 14); older builds answer NULL.
            "PATHSEPARATOR" => profile.Major < 14 ? null : Text(ServerIdentity.IsLinux(instance) ? "/" : @"\"),
            "COLLATION" => Text("SQL_Latin1_General_CP1_CI_AS"),
            _ => null,
        };
    }

    private static VariantValue? Text(string? value) => value is null ? null : new VariantValue(SqlType.NVarChar, value);

    private static VariantValue Number(int value) => new(SqlType.Int, value);

    private static string Invariant(int value) => value.ToString(CultureInfo.InvariantCulture);
}
