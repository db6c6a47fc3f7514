namespace IfiDashboard.Shared.Contracts;

/// <summary>
/// A field kept under an old name until v2 (docs/api.md): the document marks it deprecated and names the field
/// that replaces it. In Shared, because /api/v1 answers with contracts of the server and of the pages alike (the
/// evidence report is the page's record).
/// </summary>
[AttributeUsage(AttributeTargets.Property)]
public sealed class DeprecatedAliasAttribute(string replacement) : Attribute
{
    public string Replacement { get; } = replacement;
}
