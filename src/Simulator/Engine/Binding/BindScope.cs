using IfiDashboard.Simulator.Engine.Parsing;
using IfiDashboard.Simulator.Engine.VirtualTables;
using IfiDashboard.Simulator.Results;

namespace IfiDashboard.Simulator.Engine.Binding;

/// <summary>What names an expression can see: the FROM table (if any), the session and the batch parameters.</summary>
internal sealed record BindScope(
    SessionContext Session,
    IReadOnlyDictionary<string, object?> Parameters,
    VirtualTable? Table = null,
    TableSource? Source = null)
{
    public TimeProvider Clock { get; init; } = TimeProvider.System;

    public IReadOnlyList<ResultColumn> Columns => Table?.Columns(Session.Profile) ?? [];

    /// <summary>A qualifier must be the alias when there is one, else the table name as written or its last part.</summary>
    public bool Accepts(string qualifier)
    {
        if (Source is null)
        {
            return false;
        }

        if (Source.Alias is not null)
        {
            return string.Equals(qualifier, Source.Alias, StringComparison.OrdinalIgnoreCase);
        }

        return string.Equals(qualifier, Source.WrittenName, StringComparison.OrdinalIgnoreCase)
            || string.Equals(qualifier, Source.NameParts[^1], StringComparison.OrdinalIgnoreCase)
            || string.Equals(qualifier, string.Join('.', Source.NameParts.TakeLast(2)), StringComparison.OrdinalIgnoreCase);
    }

    public object? Parameter(string name, int line)
    {
        foreach (var (key, value) in Parameters)
        {
            if (string.Equals(key, name, StringComparison.OrdinalIgnoreCase))
            {
                return value;
            }
        }

        throw SqlErrors.UndeclaredVariable(name, line);
    }
}
