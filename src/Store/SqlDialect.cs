namespace IfiDashboard.Store;

/// <summary>
/// The few places where SQLite and PostgreSQL need different SQL. Everything else is written once, in the SQL both
/// speak: ON CONFLICT, RETURNING, IS DISTINCT FROM, NULLS FIRST, LIMIT; integers as 64-bit, times as fixed-width text.
/// </summary>
public sealed class SqlDialect
{
    public static readonly SqlDialect Sqlite = new(isPostgres: false);
    public static readonly SqlDialect Postgres = new(isPostgres: true);

    SqlDialect(bool isPostgres) => IsPostgres = isPostgres;

    public bool IsPostgres { get; }

    /// <summary>True when the JSON array of strings in <paramref name="jsonColumn"/> holds <paramref name="parameter"/>, ignoring case.</summary>
    public string JsonArrayContainsIgnoringCase(string jsonColumn, string parameter) => IsPostgres
        ? $"EXISTS (SELECT 1 FROM json_array_elements_text({jsonColumn}::json) t(value) WHERE lower(t.value) = lower({parameter}))"
        : $"EXISTS (SELECT 1 FROM json_each({jsonColumn}) t WHERE lower(t.value) = lower({parameter}))";
}
