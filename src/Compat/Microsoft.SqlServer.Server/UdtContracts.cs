namespace Microsoft.SqlServer.Server;

// Declarations only, so that SqlClient's parameter code can be compiled by the JIT; IfiDashboard never sends UDTs.

/// <summary>How a user-defined type is serialised.</summary>
public enum Format
{
    Unknown = 0,
    Native = 1,
    UserDefined = 2,
}

/// <summary>A user-defined type that serialises itself.</summary>
public interface IBinarySerialize
{
    void Read(BinaryReader reader);

    void Write(BinaryWriter writer);
}

/// <summary>Marks a CLR type as a SQL Server user-defined type.</summary>
[AttributeUsage(AttributeTargets.Class | AttributeTargets.Struct, Inherited = true)]
public sealed class SqlUserDefinedTypeAttribute(Format format) : Attribute
{
    public Format Format { get; } = format;

    public bool IsByteOrdered { get; set; }

    public bool IsFixedLength { get; set; }

    public int MaxByteSize { get; set; }

    public string? Name { get; set; }

    public string? ValidationMethodName { get; set; }
}

/// <summary>A CLR type that cannot be used as a user-defined type.</summary>
public sealed class InvalidUdtException : SystemException
{
    private InvalidUdtException(string message)
        : base(message)
    {
    }

    public static InvalidUdtException Create(Type udtType, string resourceReason) =>
        new($"'{udtType.FullName}' is not a valid user-defined type: {resourceReason}");
}
