using System.Reflection.Metadata;
using System.Reflection.Metadata.Ecma335;
using System.Reflection.PortableExecutable;
using IfiDashboard.Compliance.Status;

namespace IfiDashboard.Compliance.Tests;

/// <summary>
/// The engine is pure: it computes from what it is given (the wire contracts of IfiDashboard.Shared, the policy, the
/// moment to assess at) and reaches nothing else, so every figure it gives can be reproduced from its inputs. Read from
/// the built assembly's metadata, so no code path, however rarely taken, can hide a file, a socket, a database, the
/// host or the clock.
/// </summary>
public class EnginePurityTests
{
    static readonly MetadataReferences Engine = MetadataReferences.Of(typeof(ComplianceEvaluator).Assembly.Location);

    // Reference assemblies, not implementations: System.Runtime also declares File, Stream and Socket, which the
    // namespace and type checks below refuse.
    static readonly HashSet<string> AllowedAssemblies = ["System.Runtime", "System.Collections", "System.Linq", "IfiDashboard.Shared"];

    // A namespace joins this list only when none of its types reach files, the network, a database, the host or the
    // clock; System.IO, System.Net, System.Data and Microsoft.* (Extensions, ASP.NET Core, SqlClient) never do.
    static readonly HashSet<string> AllowedNamespaces =
    [
        "System", "System.Collections", "System.Collections.Generic", "System.Linq", "System.Text", "System.Globalization",
        "System.Diagnostics.CodeAnalysis", "System.Runtime.CompilerServices", "System.Threading", "System.Threading.Tasks",
    ];

    // What the compiler emits for iterators, collection expressions and debugger display, outside those namespaces.
    static readonly HashSet<string> CompilerTypes =
    [
        "System.Diagnostics.DebuggerBrowsableState", "System.Runtime.InteropServices.MemoryMarshal",
        "System.Runtime.InteropServices.CollectionsMarshal",
    ];

    // Types of the namespaces above that reach outside the engine's own computation, or run code on other threads.
    static readonly HashSet<string> RefusedTypes =
    [
        "System.AppDomain", "System.Console", "System.GC", "System.Random", "System.Threading.Thread",
        "System.Threading.ThreadPool", "System.Threading.Timer", "System.Threading.Tasks.Parallel",
    ];

    // The clock and the machine's time zones and randomness: the engine is given the moment it assesses at.
    static readonly HashSet<string> RefusedMembers =
    [
        "System.DateTime.get_Now", "System.DateTime.get_UtcNow", "System.DateTime.get_Today",
        "System.DateTimeOffset.get_Now", "System.DateTimeOffset.get_UtcNow", "System.TimeProvider.get_System",
        "System.TimeZoneInfo.get_Local", "System.TimeZoneInfo.FindSystemTimeZoneById", "System.TimeZoneInfo.GetSystemTimeZones",
        "System.Guid.NewGuid", "System.Threading.Tasks.Task.Run", "System.Threading.Tasks.Task.Delay",
    ];

    // Iterators ask for the current thread's id; every other member of Environment reads the host.
    static readonly HashSet<string> CompilerEnvironmentMembers =
        ["System.Environment.get_CurrentManagedThreadId", "System.Environment.get_NewLine"];

    // Each test names every offending reference, not only the first few.

    [Fact]
    public void Engine_references_only_the_pure_base_library_and_the_wire_contracts()
    {
        var refused = Engine.Assemblies.Where(a => !AllowedAssemblies.Contains(a)).ToList();
        Assert.True(refused.Count == 0, $"The engine references {string.Join(", ", refused)}");
    }

    [Fact]
    public void Engine_uses_no_type_that_reaches_files_network_databases_or_the_host()
    {
        var refused = Engine.Types.Where(t => !IsAllowedType(t)).ToList();
        Assert.True(refused.Count == 0, $"The engine uses {string.Join(", ", refused)}");
    }

    [Fact]
    public void Engine_never_reads_the_clock_the_time_zones_or_randomness_of_the_machine()
    {
        var refused = Engine.Members.Where(m => RefusedMembers.Contains(m)
            || m.StartsWith("System.Environment.", StringComparison.Ordinal) && !CompilerEnvironmentMembers.Contains(m)).ToList();
        Assert.True(refused.Count == 0, $"The engine calls {string.Join(", ", refused)}");
    }

    [Fact]
    public void Engine_calls_no_native_code() =>
        Assert.Empty(Engine.NativeModules);

    /// <summary>The reference is proof enough that the assembly was read: a pure engine still builds strings.</summary>
    [Fact]
    public void Metadata_reader_sees_what_the_engine_uses() =>
        Assert.Contains("System.Text.StringBuilder", Engine.Types);

    static bool IsAllowedType(string type) =>
        type.StartsWith("IfiDashboard.Shared.", StringComparison.Ordinal)
        || CompilerTypes.Contains(type)
        || IsBaseLibraryAttribute(type)
        || AllowedNamespaces.Contains(NamespaceOf(type)) && !RefusedTypes.Contains(type);

    /// <summary>Assembly information, debugger and compiler attributes (and their nested enums) describe; they do not run.</summary>
    static bool IsBaseLibraryAttribute(string type) =>
        type.StartsWith("System.", StringComparison.Ordinal) && type.Split('+')[0].EndsWith("Attribute", StringComparison.Ordinal);

    static string NamespaceOf(string type) => type[..Math.Max(0, type.Split('+')[0].LastIndexOf('.'))];

    /// <summary>What an assembly refers to outside itself, by full name: nested types as Outer+Inner, members as Type.Name.</summary>
    sealed record MetadataReferences(
        IReadOnlyList<string> Assemblies, IReadOnlyList<string> Types, IReadOnlyList<string> Members, IReadOnlyList<string> NativeModules)
    {
        public static MetadataReferences Of(string path)
        {
            using var pe = new PEReader(File.OpenRead(path));
            var metadata = pe.GetMetadataReader();
            var assemblies = metadata.AssemblyReferences
                .Select(h => metadata.GetString(metadata.GetAssemblyReference(h).Name)).ToList();
            var types = metadata.TypeReferences.Select(h => TypeName(metadata, h)).Distinct().ToList();
            var members = metadata.MemberReferences
                .Select(h => metadata.GetMemberReference(h))
                .Where(m => m.Parent.Kind == HandleKind.TypeReference)
                .Select(m => $"{TypeName(metadata, (TypeReferenceHandle)m.Parent)}.{metadata.GetString(m.Name)}")
                .Distinct().ToList();
            var native = Enumerable.Range(1, metadata.GetTableRowCount(TableIndex.ModuleRef))
                .Select(row => metadata.GetString(metadata.GetModuleReference(MetadataTokens.ModuleReferenceHandle(row)).Name))
                .ToList();
            return new MetadataReferences(assemblies, types, members, native);
        }

        static string TypeName(MetadataReader metadata, TypeReferenceHandle handle)
        {
            var type = metadata.GetTypeReference(handle);
            var name = metadata.GetString(type.Name);
            return type.ResolutionScope.Kind == HandleKind.TypeReference
                ? $"{TypeName(metadata, (TypeReferenceHandle)type.ResolutionScope)}+{name}"
                : $"{metadata.GetString(type.Namespace)}.{name}";
        }
    }
}
