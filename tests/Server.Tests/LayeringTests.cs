using System.Reflection;
using System.Reflection.Emit;
using IfiDashboard.Compliance.Status;
using IfiDashboard.Server.Store;
using IfiDashboard.Shared.Inventory;
using IfiDashboard.Store;

namespace IfiDashboard.Server.Tests;

/// <summary>
/// The layers of docs/architecture.md, read from the built assemblies: no project references one above it, and no two
/// folders of src/Server use each other. A folder is a top-level namespace of the server (<c>IfiDashboard.Server.Alerts</c>
/// with everything under it); a use is any reference in a signature, an attribute or a method body, lambdas and async
/// methods included, so no code path can hide one.
/// </summary>
public class LayeringTests
{
    const string Prefix = "IfiDashboard.";
    const string ServerPrefix = "IfiDashboard.Server.";

    static readonly Assembly Server = typeof(StoreAvailability).Assembly;

    // Each project and the projects it may reference: the ones below it.
    static readonly Dictionary<Assembly, string[]> AllowedReferences = new()
    {
        [typeof(InstanceRules).Assembly] = [],
        [typeof(ComplianceEvaluator).Assembly] = ["IfiDashboard.Shared"],
        [typeof(SqlDialect).Assembly] = ["IfiDashboard.Shared", "IfiDashboard.Compliance"],
        [typeof(Collector.Probes.FailureClassifier).Assembly] = ["IfiDashboard.Shared", "IfiDashboard.Compliance"],
        [typeof(Client.Layout.IStoreStatus).Assembly] = ["IfiDashboard.Shared", "IfiDashboard.Compliance"],
    };

    [Fact]
    public void No_project_references_a_project_above_it()
    {
        var refused = AllowedReferences
            .SelectMany(p => p.Key.GetReferencedAssemblies()
                .Where(r => r.Name!.StartsWith(Prefix, StringComparison.Ordinal) && !p.Value.Contains(r.Name))
                .Select(r => $"{p.Key.GetName().Name} -> {r.Name}"))
            .ToList();
        Assert.True(refused.Count == 0, $"A project reaches up: {string.Join(", ", refused)}");
    }

    [Fact]
    public void No_two_folders_of_the_server_use_each_other()
    {
        var uses = FolderUses(Server);
        var cycles = uses.Keys
            .Where(edge => string.CompareOrdinal(edge.From, edge.To) < 0 && uses.ContainsKey((edge.To, edge.From)))
            .Select(edge => $"{edge.From} <-> {edge.To} via {uses[edge]} and {uses[(edge.To, edge.From)]}")
            .Order(StringComparer.Ordinal)
            .ToList();
        Assert.True(cycles.Count == 0, $"Folders of src/Server use each other:\n{string.Join("\n", cycles)}");
    }

    /// <summary>The reader sees uses in method bodies: the API's endpoints run the editing module's writes.</summary>
    [Fact]
    public void Folder_reader_sees_a_use_made_only_in_a_method_body() =>
        Assert.Contains(("Api", "Editing"), FolderUses(Server).Keys);

    /// <summary>The reader sees uses in attributes: the audit endpoints' parameters name their JSON types for the document.</summary>
    [Fact]
    public void Folder_reader_sees_a_use_made_only_in_an_attribute() =>
        Assert.Contains(("Audit", "OpenApi"), FolderUses(Server).Keys);

    /// <summary>
    /// SQL belongs to the store (src/Store): no type of the server, lambdas and async methods included, calls Dapper or
    /// makes an ADO.NET command itself. The server asks a store class, which runs the SQL and returns rows or records.
    /// </summary>
    [Fact]
    public void No_type_of_the_server_runs_sql()
    {
        var sql = SqlUses(Server);
        Assert.True(sql.Count == 0, $"The server runs SQL itself; move it to a store or reader in src/Store:\n{string.Join("\n", sql)}");
    }

    /// <summary>The same reader finds the store's SQL, so an empty answer for the server is not a blind one.</summary>
    [Fact]
    public void Sql_reader_sees_the_stores_dapper_calls_and_commands() =>
        Assert.Contains(SqlUses(typeof(SqlDialect).Assembly), use => use.Contains("-> Dapper.SqlMapper", StringComparison.Ordinal));

    static List<string> SqlUses(Assembly assembly) =>
        assembly.GetTypes()
            .SelectMany(type => TypesUsedBy(type).Where(RunsSql).Select(used => $"{Outermost(type).FullName} -> {used.FullName}"))
            .Distinct()
            .Order(StringComparer.Ordinal)
            .ToList();

    static bool RunsSql(Type type) =>
        type.Assembly.GetName().Name == "Dapper"
        || typeof(System.Data.IDbCommand).IsAssignableFrom(type)
        || typeof(System.Data.Common.DbBatch).IsAssignableFrom(type);

    static Type Outermost(Type type)
    {
        while (type.DeclaringType is { } outer) type = outer; // a lambda's closure or an async state machine
        return type;
    }

    /// <summary>
    /// Every use of one folder by another, with the first type seen making it ("Alerts.AlertRouter uses
    /// Editing.InventoryEditor"), as a map from (user, used) folder.
    /// </summary>
    static Dictionary<(string From, string To), string> FolderUses(Assembly assembly)
    {
        var uses = new Dictionary<(string, string), string>();
        foreach (var type in assembly.GetTypes())
        {
            if (FolderOf(type) is not { } from) continue;
            foreach (var used in TypesUsedBy(type))
                if (used.Assembly == assembly && FolderOf(used) is { } to && to != from)
                    uses.TryAdd((from, to), $"{Name(type)} -> {Name(used)}");
        }
        return uses;
    }

    static string? FolderOf(Type type)
    {
        var ns = type.Namespace;
        if (ns is null || !ns.StartsWith(ServerPrefix, StringComparison.Ordinal)) return null;
        return ns[ServerPrefix.Length..].Split('.')[0];
    }

    static string Name(Type type)
    {
        type = Outermost(type);
        return $"{type.Namespace![ServerPrefix.Length..]}.{type.Name}";
    }

    const BindingFlags Declared = BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Instance | BindingFlags.Static
                                  | BindingFlags.DeclaredOnly;

    static IEnumerable<Type> TypesUsedBy(Type type)
    {
        var used = new List<Type>();
        if (type.BaseType is { } baseType) used.Add(baseType);
        used.AddRange(type.GetInterfaces());
        used.AddRange(TypesInAttributes(type.CustomAttributes));
        foreach (var field in type.GetFields(Declared))
            used.AddRange(TypesInAttributes(field.CustomAttributes).Append(field.FieldType));
        foreach (var property in type.GetProperties(Declared))
            used.AddRange(TypesInAttributes(property.CustomAttributes).Append(property.PropertyType));
        foreach (var method in type.GetMethods(Declared).Cast<MethodBase>().Concat(type.GetConstructors(Declared)))
        {
            if (method is MethodInfo info) used.Add(info.ReturnType);
            used.AddRange(TypesInAttributes(method.CustomAttributes));
            foreach (var parameter in method.GetParameters())
                used.AddRange(TypesInAttributes(parameter.CustomAttributes).Append(parameter.ParameterType));
            used.AddRange(TypesInBody(method));
        }
        return used.SelectMany(Flatten);
    }

    /// <summary>An attribute's type and the types it is given (<c>typeof</c> arguments).</summary>
    static IEnumerable<Type> TypesInAttributes(IEnumerable<CustomAttributeData> attributes) =>
        attributes.SelectMany(a => a.ConstructorArguments.Concat(a.NamedArguments.Select(n => n.TypedValue))
            .Select(argument => argument.Value as Type)
            .OfType<Type>()
            .Prepend(a.AttributeType));

    /// <summary>A generic type with its arguments, an array or reference with its element.</summary>
    static IEnumerable<Type> Flatten(Type type)
    {
        if (type.HasElementType) return Flatten(type.GetElementType()!);
        if (type.IsGenericParameter) return [];
        if (!type.IsGenericType) return [type];
        return type.GetGenericArguments().SelectMany(Flatten).Prepend(type.GetGenericTypeDefinition());
    }

    static readonly Dictionary<short, OpCode> OpCodesByValue = typeof(OpCodes)
        .GetFields(BindingFlags.Public | BindingFlags.Static)
        .Select(f => (OpCode)f.GetValue(null)!)
        .ToDictionary(o => o.Value);

    /// <summary>The types whose members or tokens a method body names, read from its IL.</summary>
    static IEnumerable<Type> TypesInBody(MethodBase method)
    {
        var il = method.GetMethodBody()?.GetILAsByteArray();
        if (il is null) yield break;
        var typeArguments = method.DeclaringType is { IsGenericType: true } declaring ? declaring.GetGenericArguments() : null;
        var methodArguments = method.IsGenericMethod ? method.GetGenericArguments() : null;
        for (var at = 0; at < il.Length;)
        {
            var value = il[at] == 0xFE ? (short)(0xFE00 | il[at + 1]) : il[at];
            at += il[at] == 0xFE ? 2 : 1;
            var opCode = OpCodesByValue[value];
            switch (opCode.OperandType)
            {
                case OperandType.InlineMethod or OperandType.InlineField or OperandType.InlineType or OperandType.InlineTok:
                    var member = method.Module.ResolveMember(BitConverter.ToInt32(il, at), typeArguments, methodArguments);
                    if (member is Type type) yield return type;
                    else if (member?.DeclaringType is { } owner) yield return owner;
                    if (member is MethodInfo called)
                    {
                        yield return called.ReturnType;
                        foreach (var argument in called.GetGenericArguments()) yield return argument;
                    }
                    if (member is FieldInfo field) yield return field.FieldType;
                    at += 4;
                    break;
                case OperandType.InlineSwitch:
                    at += 4 + 4 * BitConverter.ToInt32(il, at);
                    break;
                default:
                    at += OperandSize(opCode.OperandType);
                    break;
            }
        }
    }

    static int OperandSize(OperandType operand) => operand switch
    {
        OperandType.InlineNone => 0,
        OperandType.ShortInlineBrTarget or OperandType.ShortInlineI or OperandType.ShortInlineVar => 1,
        OperandType.InlineVar => 2,
        OperandType.InlineI8 or OperandType.InlineR => 8,
        _ => 4,
    };
}
