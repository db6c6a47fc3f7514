namespace IfiDashboard.Server.Http;

/// <summary>RFC 7807 problem documents the API answers with outside endpoint handlers (auth, rate limits).</summary>
internal static class ApiProblems
{
    /// <summary>Writes the problem whatever the request's Accept header says: clients must always see why.</summary>
    public static Task WriteAsync(HttpContext context, int status, string title, string detail) =>
        TypedResults.Problem(detail, statusCode: status, title: title).ExecuteAsync(context);

    public static IResult FieldProblem(int status, string title, IDictionary<string, string[]> errors) =>
        TypedResults.Problem(new HttpValidationProblemDetails(errors) { Status = status, Title = title });

    public static IResult Validation(IDictionary<string, string[]> errors) =>
        TypedResults.ValidationProblem(errors, title: "The request has invalid fields.");

    public static IResult Validation(string field, string message) => Validation(new Dictionary<string, string[]> { [field] = [message] });
}
