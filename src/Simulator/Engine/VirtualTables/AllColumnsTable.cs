using IfiDashboard.Simulator.Results;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Engine.VirtualTables;

/// <summary>
/// sys.all_columns, holding the columns of every modelled view as this build has them, so the collector's
/// "does the IFI column exist" guard gives the same answer as on a real server. Every documented column in the
/// documented order; each row's type columns describe the column as the view sends it.
/// </summary>
internal sealed class AllColumnsTable : VirtualTable
{
    private const int Sql2016 = 13;
    private const string Collation = "SQL_Latin1_General_CP1_CI_AS";

    private static DocumentedColumn Flag(string name) => new ResultColumn(name, SqlType.Bit);

    // "sys.all_columns (Transact-SQL)", learn.microsoft.com/sql/relational-databases/system-catalog-views/sys-all-columns-transact-sql
    private static readonly DocumentedColumns Documented = new(
    [
        new ResultColumn("object_id", SqlType.Int, Nullable: false),
        ResultColumn.NVarChar("name", 128),
        new ResultColumn("column_id", SqlType.Int, Nullable: false),
        new ResultColumn("system_type_id", SqlType.TinyInt, Nullable: false),
        new ResultColumn("user_type_id", SqlType.Int, Nullable: false),
        new ResultColumn("max_length", SqlType.SmallInt, Nullable: false),
        new ResultColumn("precision", SqlType.TinyInt, Nullable: false),
        new ResultColumn("scale", SqlType.TinyInt, Nullable: false),
        ResultColumn.NVarChar("collation_name", 128),
        Flag("is_nullable"),
        new ResultColumn("is_ansi_padded", SqlType.Bit, Nullable: false),
        new ResultColumn("is_rowguidcol", SqlType.Bit, Nullable: false),
        new ResultColumn("is_identity", SqlType.Bit, Nullable: false),
        new ResultColumn("is_computed", SqlType.Bit, Nullable: false),
        new ResultColumn("is_filestream", SqlType.Bit, Nullable: false),
        Flag("is_replicated"),
        Flag("is_non_sql_subscribed"),
        Flag("is_merge_published"),
        Flag("is_dts_replicated"),
        new ResultColumn("is_xml_document", SqlType.Bit, Nullable: false),
        new ResultColumn("xml_collection_id", SqlType.Int, Nullable: false),
        new ResultColumn("default_object_id", SqlType.Int, Nullable: false),
        new ResultColumn("rule_object_id", SqlType.Int, Nullable: false),
        Flag("is_sparse"),
        Flag("is_column_set"),
        new(new ResultColumn("generated_always_type", SqlType.TinyInt), Sql2016),
        new(ResultColumn.NVarChar("generated_always_type_desc", 60), Sql2016),
    ]);

    public override string Name => "all_columns";

    public override int ObjectId => -1002;

    public override IReadOnlyList<ResultColumn> Columns(VersionProfile profile) => Documented.On(CatalogMajor(profile));

    public override bool HasColumnOnSomeBuild(string column) => Documented.IsOnSomeBuild(column);

    public override IEnumerable<object?[]> Rows(SessionContext session)
    {
        var major = CatalogMajor(session.Profile);
        return VirtualCatalog.Tables
            .Where(t => t.ExistsIn(session.Profile))
            .SelectMany(t => t.Columns(session.Profile).Select((c, i) =>
            {
                var (typeId, maxLength, precision, scale) = TypeOf(c);
                var character = c.Type is SqlType.NVarChar or SqlType.NChar or SqlType.VarChar or SqlType.Char;
                var padded = character || c.Type is SqlType.VarBinary or SqlType.Binary or SqlType.SqlVariant;
                return Documented.Row(major,
                [
                    t.ObjectId, c.Name, i + 1, typeId, (int)typeId, maxLength, precision, scale,
                    character ? Collation : null, c.Nullable, padded, false, false, false, false, false, false, false,
                    false, false, 0, 0, 0, false, false, (byte)0, "NOT_APPLICABLE",
                ]);
            }));
    }

    /// <summary>system_type_id, max_length in bytes, precision and scale as sys.types and the catalog report them.</summary>
    private static (byte TypeId, short MaxLength, byte Precision, byte Scale) TypeOf(ResultColumn c) => c.Type switch
    {
        SqlType.NVarChar => (231, (short)(c.MaxLength < 0 ? -1 : c.MaxLength * 2), 0, 0),
        SqlType.NChar => (239, (short)(c.MaxLength * 2), 0, 0),
        SqlType.VarChar => (167, (short)c.MaxLength, 0, 0),
        SqlType.Char => (175, (short)c.MaxLength, 0, 0),
        SqlType.VarBinary => (165, (short)c.MaxLength, 0, 0),
        SqlType.Binary => (173, (short)c.MaxLength, 0, 0),
        SqlType.Int => (56, 4, 10, 0),
        SqlType.BigInt => (127, 8, 19, 0),
        SqlType.SmallInt => (52, 2, 5, 0),
        SqlType.TinyInt => (48, 1, 3, 0),
        SqlType.Bit => (104, 1, 1, 0),
        SqlType.DateTime => (61, 8, 23, 3),
        SqlType.SmallDateTime => (58, 4, 16, 0),
        SqlType.DateTime2 => (42, (short)(c.Scale < 3 ? 6 : c.Scale < 5 ? 7 : 8), (byte)(c.Scale == 0 ? 19 : 20 + c.Scale), c.Scale),
        SqlType.DateTimeOffset => (43, (short)(c.Scale < 3 ? 8 : c.Scale < 5 ? 9 : 10), (byte)(c.Scale == 0 ? 26 : 27 + c.Scale), c.Scale),
        SqlType.Date => (40, 3, 10, 0),
        SqlType.Time => (41, (short)(c.Scale < 3 ? 3 : c.Scale < 5 ? 4 : 5), (byte)(c.Scale == 0 ? 8 : 9 + c.Scale), c.Scale),
        SqlType.Decimal or SqlType.Numeric => (c.Type == SqlType.Decimal ? (byte)106 : (byte)108,
            (short)(c.Precision <= 9 ? 5 : c.Precision <= 19 ? 9 : c.Precision <= 28 ? 13 : 17), c.Precision, c.Scale),
        SqlType.Real => (59, 4, 24, 0),
        SqlType.Float => (62, 8, 53, 0),
        SqlType.Money => (60, 8, 19, 4),
        SqlType.SmallMoney => (122, 4, 10, 4),
        SqlType.UniqueIdentifier => (36, 16, 0, 0),
        SqlType.SqlVariant => (98, 8016, 0, 0),
        _ => throw new NotSupportedException($"No catalog type for {c.Type}."),
    };
}
