using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>sys.configurations with the few options the collector reads; value and value_in_use are sql_variant.</summary>
internal sealed class ConfigurationsTable : VirtualTable
{
    private static readonly IReadOnlyList<ResultColumn> Shape =
    [
        new("configuration_id", SqlType.Int, Nullable: false),
        ResultColumn.NVarChar("name", 35, nullable: false),
        new("value", SqlType.SqlVariant, MaxLength: 8016),
        new("minimum", SqlType.SqlVariant, MaxLength: 8016),
        new("maximum", SqlType.SqlVariant, MaxLength: 8016),
        new("value_in_use", SqlType.SqlVariant, MaxLength: 8016),
        ResultColumn.NVarChar("description", 255, nullable: false),
        new("is_dynamic", SqlType.Bit, Nullable: false),
        new("is_advanced", SqlType.Bit, Nullable: false),
    ];

    public override string Name => "configurations";

    public override int ObjectId => -1008;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Shape;

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        var trace = session.Instance.DefaultTrace.Enabled ? 1 : 0;
        yield return Row(518, "show advanced options", 0, 0, 1, "show advanced options", advanced: false);
        yield return Row(1544, "max server memory (MB)", int.MaxValue, 128, int.MaxValue, "Maximum size of server memory (MB)",
            advanced: true);
        yield return Row(1568, "default trace enabled", trace, 0, 1, "Enable or disable the default trace", advanced: true);
        yield return Row(1579, "backup compression default", 0, 0, 1, "Enable compression of backups by default",
            advanced: false);
    }

    private static object?[] Row(int id, string name, int value, int minimum, int maximum, string description, bool advanced) =>
        [id, name, Int(value), Int(minimum), Int(maximum), Int(value), description, true, advanced];

    private static VariantValue Int(int value) => new(SqlType.Int, value);
}
