namespace IfiDashboard.Server.Http;

internal static class EndpointMetadataExtensions
{
    /// <summary>The problems every key-protected endpoint can answer: no or bad key, missing scope, rate limit.</summary>
    public static RouteHandlerBuilder ProducesAuthProblems(this RouteHandlerBuilder builder) => builder
        .ProducesProblem(StatusCodes.Status401Unauthorized)
        .ProducesProblem(StatusCodes.Status403Forbidden)
        .ProducesProblem(StatusCodes.Status429TooManyRequests);

    /// <summary>The problems of an endpoint that reads a JSON body.</summary>
    public static RouteHandlerBuilder ProducesBodyProblems(this RouteHandlerBuilder builder) => builder
        .ProducesValidationProblem()
        .ProducesProblem(StatusCodes.Status413PayloadTooLarge)
        .ProducesProblem(StatusCodes.Status415UnsupportedMediaType);
}
