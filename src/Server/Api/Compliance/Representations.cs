using System.Security.Cryptography;
using System.Text.Json;
using IfiDashboard.Server.Http;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Api.Compliance;

/// <summary>
/// Answers a read with its bytes and a strong ETag made from them, or 304 when If-None-Match names it. Compliance
/// bodies are computed, not stored rows with versions, so the representation itself is what the tag identifies.
/// </summary>
internal static class Representations
{
    public const string JsonType = "application/json; charset=utf-8";

    public static IResult Json<T>(HttpContext context, T value)
    {
        var options = context.RequestServices.GetRequiredService<IOptions<Microsoft.AspNetCore.Http.Json.JsonOptions>>().Value;
        return Bytes(context, JsonSerializer.SerializeToUtf8Bytes(value, options.SerializerOptions), JsonType);
    }

    public static IResult Bytes(HttpContext context, byte[] body, string contentType, string? fileName = null)
    {
        var etag = $"\"r{Convert.ToHexStringLower(SHA256.HashData(body).AsSpan(0, 12))}\"";
        context.Response.Headers.ETag = etag;
        if (EntityTags.NoneMatchHits(context.Request, etag))
            return TypedResults.StatusCode(StatusCodes.Status304NotModified);
        return TypedResults.Bytes(body, contentType, fileName);
    }
}
