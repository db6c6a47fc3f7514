using System.Text.Json;
using Microsoft.AspNetCore.Http.Features;

namespace IfiDashboard.Server.Http;

/// <summary>A request body read as <typeparamref name="T"/>, or the problem to answer instead.</summary>
internal readonly record struct Body<T>(T? Value, IResult? Problem) where T : class;

/// <summary>
/// Reads JSON bodies ourselves rather than through parameter binding, so every failure is a problem document naming
/// the field (<c>instances[3].port</c>) and the size limit holds on any server, test server included.
/// </summary>
internal static class JsonBody
{
    public static async Task<Body<T>> ReadAsync<T>(HttpRequest request, int maxBytes, CancellationToken cancellationToken)
        where T : class
    {
        if (!IsJson(request.ContentType))
            return Fail<T>(TypedResults.Problem("Send the body as application/json.",
                statusCode: StatusCodes.Status415UnsupportedMediaType, title: "Unsupported content type"));
        if (request.ContentLength > maxBytes)
            return TooLarge<T>(maxBytes);
        if (request.HttpContext.Features.Get<IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } sizeFeature)
            sizeFeature.MaxRequestBodySize = maxBytes;

        byte[]? bytes;
        try
        {
            bytes = await ReadUpToAsync(request.Body, maxBytes, cancellationToken);
        }
        catch (BadHttpRequestException e) when (e.StatusCode == StatusCodes.Status413PayloadTooLarge)
        {
            bytes = null;
        }
        if (bytes is null)
            return TooLarge<T>(maxBytes);
        if (bytes.Length == 0)
            return Fail<T>(ApiProblems.Validation("body", "A JSON body is required."));

        try
        {
            var value = JsonSerializer.Deserialize<T>(bytes, ApiJson.Strict);
            return value is null ? Fail<T>(ApiProblems.Validation("body", "A JSON object is required, not null.")) : new Body<T>(value, null);
        }
        catch (JsonException e)
        {
            return Fail<T>(ApiProblems.Validation(FieldOf(e.Path), Describe(e)));
        }
    }

    static bool IsJson(string? contentType) =>
        contentType is not null
        && Microsoft.Net.Http.Headers.MediaTypeHeaderValue.TryParse(contentType, out var media)
        && (media.MediaType.Equals("application/json", StringComparison.OrdinalIgnoreCase)
            || media.Suffix.Equals("json", StringComparison.OrdinalIgnoreCase));

    /// <summary>The body, or null when it is longer than <paramref name="maxBytes"/> (chunked bodies have no length).</summary>
    static async Task<byte[]?> ReadUpToAsync(Stream body, int maxBytes, CancellationToken cancellationToken)
    {
        using var buffer = new MemoryStream();
        var chunk = new byte[16 * 1024];
        int read;
        while ((read = await body.ReadAsync(chunk, cancellationToken)) > 0)
        {
            if (buffer.Length + read > maxBytes)
                return null;
            buffer.Write(chunk, 0, read);
        }
        return buffer.ToArray();
    }

    /// <summary>"$.instances[3].port" → "instances[3].port"; the root is "body".</summary>
    internal static string FieldOf(string? jsonPath) =>
        jsonPath is null or "$" or "" ? "body"
        : jsonPath.StartsWith("$.", StringComparison.Ordinal) ? jsonPath[2..]
        : jsonPath.StartsWith('$') ? jsonPath[1..]
        : jsonPath;

    // System.Text.Json says what went wrong only in its message; turn the common cases into advice without
    // echoing .NET type names.
    static string Describe(JsonException e)
    {
        var message = e.Message;
        if (message.Contains("could not be mapped", StringComparison.Ordinal))
            return "Unknown field: it is not part of this request's schema.";
        if (message.Contains("uplicate", StringComparison.Ordinal))
            return "The property appears more than once.";
        if (message.Contains("could not be converted", StringComparison.Ordinal))
            return "The value has the wrong JSON type for this field.";
        if (message.Contains("depth", StringComparison.OrdinalIgnoreCase))
            return "The JSON is nested too deeply.";
        return $"Malformed JSON near line {e.LineNumber + 1}, byte {e.BytePositionInLine + 1}.";
    }

    static Body<T> TooLarge<T>(int maxBytes) where T : class =>
        Fail<T>(TypedResults.Problem($"The body must not exceed {maxBytes} bytes.",
            statusCode: StatusCodes.Status413PayloadTooLarge, title: "Request body too large"));

    static Body<T> Fail<T>(IResult problem) where T : class => new(null, problem);
}
