using System.Security.Claims;

namespace IfiDashboard.Client.Components;

/// <summary>
/// "Verify now": an immediate poll of one instance or of a grid view, asked by an Operator from a page over its
/// circuit. The server implements it with the same rules as <c>POST /api/v1/instances/{key}/verify</c> (docs/api.md):
/// at most <see cref="MaxInstances"/> at once, a rate limit per person, audited.
/// </summary>
public interface IVerifyNow
{
    /// <summary>The most instances one request may name.</summary>
    int MaxInstances { get; }

    /// <param name="scope">What the person asked for, as the audit log records it (an instance, the grid's view).</param>
    Task<VerifyNowAnswer> RequestAsync(ClaimsPrincipal user, IReadOnlyList<long> instanceIds, string scope,
        CancellationToken cancellationToken);
}

/// <summary>Why a request was refused; nothing is changed or recorded then.</summary>
public enum VerifyNowRefusal
{
    /// <summary>Not an Operator (or key without <c>inventory:write</c>).</summary>
    Forbidden,
    /// <summary>More instances than <see cref="IVerifyNow.MaxInstances"/>, or none.</summary>
    OutOfBounds,
    /// <summary>The caller's requests per window are used up.</summary>
    TooOften,
}

/// <summary>
/// The answer: accepted at <see cref="RequestedAt"/> (the server's clock; the first poll finishing after it carries the
/// result), or refused with a message a person can act on.
/// </summary>
public sealed record VerifyNowAnswer(DateTimeOffset RequestedAt, int Instances, VerifyNowRefusal? Refusal, string Message,
    TimeSpan? RetryAfter = null)
{
    public bool Accepted => Refusal is null;
}
