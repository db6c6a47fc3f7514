using IfiDashboard.Server.Security;
using IfiDashboard.Server.Http;
using IfiDashboard.Store.Collectors;
using IfiDashboard.Server.Composition;
using IfiDashboard.Shared.Inventory;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Ingestion;

/// <summary>The saved assignment rules, as <c>PUT /api/v1/collector-assignments</c> takes them and the preview reads them.</summary>
public sealed record AssignmentRulesInput(IReadOnlyList<CollectorAssignment?>? Rules);

/// <summary>The rules in force: from configuration (read-only, first) and saved.</summary>
public sealed record AssignmentRulesResource(IReadOnlyList<CollectorAssignment> Configured, IReadOnlyList<CollectorAssignment> Saved);

/// <summary>
/// <c>/api/v1/collector-assignments</c> (scope <c>admin</c>): read, preview and replace the rules that assign instances
/// to collectors (docs/deployment.md, "Assignments"). The same rule set as the collectors page and the configuration
/// (<see cref="CollectorAssignments.Check"/>); a refused list changes nothing.
/// </summary>
public static class AssignmentsApi
{
    const int MaxBodyBytes = 1024 * 1024;

    public static IServiceCollection AddIfiCollectorAssignments(this IServiceCollection services, IConfiguration configuration)
    {
        services.AddIfiModule(IfiModuleNames.CollectorAssignments);
        services.AddOptions<AssignmentOptions>().Bind(configuration.GetSection(AssignmentOptions.Section)).ValidateOnStart();
        services.AddSingleton<IValidateOptions<AssignmentOptions>, AssignmentOptionsValidation>();
        return services;
    }

    public static RouteGroupBuilder MapCollectorAssignmentsApi(this RouteGroupBuilder api)
    {
        var group = api.MapGroup("/collector-assignments").RequireScope(ApiScopes.Admin).WithTags("Collectors");
        group.MapGet("", ReadAsync)
            .WithName("ReadCollectorAssignments")
            .WithSummary("The assignment rules: from configuration (read-only, applied first) and saved.")
            .Produces<AssignmentRulesResource>()
            .ProducesAuthProblems();
        group.MapPut("", SaveAsync)
            .WithName("SaveCollectorAssignments")
            .WithSummary("Replace the saved assignment rules (an empty list removes them); audited as collector.assignments-saved.")
            .Accepts<AssignmentRulesInput>("application/json")
            .Produces<AssignmentPreview>()
            .ProducesBodyProblems()
            .ProducesAuthProblems();
        group.MapPost("/preview", PreviewAsync)
            .WithName("PreviewCollectorAssignments")
            .WithSummary("What a list of rules would assign, after the configured ones: instances per rule, and the unassigned. Saves nothing.")
            .Accepts<AssignmentRulesInput>("application/json")
            .Produces<AssignmentPreview>()
            .ProducesBodyProblems()
            .ProducesAuthProblems();
        return api;
    }

    static async Task<IResult> ReadAsync(AssignmentStore assignments, CancellationToken ct)
    {
        var rules = await assignments.ReadAsync(ct);
        return TypedResults.Ok(new AssignmentRulesResource(rules.Configured, rules.Saved));
    }

    static async Task<IResult> SaveAsync(HttpContext context, AssignmentStore assignments, CancellationToken ct)
    {
        var (rules, problem) = await ReadRulesAsync(context, ct);
        if (problem is not null)
            return problem;
        await assignments.SaveAsync(rules!, ct);
        return TypedResults.Ok(await assignments.PreviewAsync(rules!, ct));
    }

    static async Task<IResult> PreviewAsync(HttpContext context, AssignmentStore assignments, CancellationToken ct)
    {
        var (rules, problem) = await ReadRulesAsync(context, ct);
        return problem ?? TypedResults.Ok(await assignments.PreviewAsync(rules!, ct));
    }

    static async Task<(IReadOnlyList<CollectorAssignment>? Rules, IResult? Problem)> ReadRulesAsync(HttpContext context, CancellationToken ct)
    {
        var body = await JsonBody.ReadAsync<AssignmentRulesInput>(context.Request, MaxBodyBytes, ct);
        if (body.Problem is not null)
            return (null, body.Problem);
        var errors = CollectorAssignments.Check(body.Value!.Rules);
        if (errors.Count > 0)
            return (null, ApiProblems.Validation(errors.GroupBy(e => e.Rule == 0 && e.Field == "rules" ? "rules" : e.Path)
                .ToDictionary(g => g.Key, g => g.Select(e => e.Message).ToArray())));
        return ([.. body.Value.Rules!.Select(r => r!)], null);
    }
}

/// <summary>Configured rules break the start like any invalid setting, naming the rule's key.</summary>
internal sealed class AssignmentOptionsValidation : IValidateOptions<AssignmentOptions>
{
    public ValidateOptionsResult Validate(string? name, AssignmentOptions options)
    {
        var unknown = options.Rules.Select((rule, index) => (rule, index))
            .Where(r => AssignmentRuleSetting.MatchOf(r.rule.Match) is null)
            .Select(r => $"{AssignmentOptions.Section}:Rules:{r.index}:Match: one of {string.Join(", ", Enum.GetNames<AssignmentMatch>())}.")
            .ToList();
        if (unknown.Count > 0)
            return ValidateOptionsResult.Fail(unknown);
        var errors = CollectorAssignments.Check(options.ToAssignments());
        return errors.Count == 0 ? ValidateOptionsResult.Success
            : ValidateOptionsResult.Fail(errors.Select(e => e.Field == "rules"
                ? $"{AssignmentOptions.Section}:Rules: {e.Message}"
                : $"{AssignmentOptions.Section}:Rules:{e.Rule}:{ConfigurationKey(e.Field)}: {e.Message}"));
    }

    /// <summary><c>values[2]</c> → <c>Values:2</c>.</summary>
    static string ConfigurationKey(string field) =>
        string.Concat(char.ToUpperInvariant(field[0]), field[1..].Replace("[", ":", StringComparison.Ordinal).Replace("]", "", StringComparison.Ordinal));
}
