using System.Reflection;
using Microsoft.Extensions.Options;

namespace IfiDashboard.Server.Hosting;

/// <summary>
/// The product's own settings, validated before the host's other start-up validators: one of those is the metrics
/// subscription (<c>AddMetrics</c> starts it through <c>ValidateOnStart</c>), which builds OpenTelemetry's whole meter
/// provider, and <see cref="IStartupValidator"/> runs every validator before it reports. A wrong setting then stops the
/// server without that work (a refused start 0.9 -> 0.6-0.7 s of processor, docs/benchmarks.md); the full
/// <see cref="IStartupValidator"/> still runs after this, so nothing is validated less.
/// </summary>
public static class OwnSettingsFirst
{
    /// <summary>
    /// Validates every options class of the product's that has a validator, and throws what
    /// <see cref="IStartupValidator"/> would: the failures together.
    /// </summary>
    public static void Validate(IServiceProvider services, IServiceCollection registrations)
    {
        var failures = new List<OptionsValidationException>();
        foreach (var options in registrations
                     .Select(d => d.ServiceType)
                     .Where(t => t.IsGenericType && t.GetGenericTypeDefinition() == typeof(IValidateOptions<>))
                     .Select(t => t.GetGenericArguments()[0])
                     .Where(t => t.Namespace?.StartsWith("IfiDashboard.", StringComparison.Ordinal) == true)
                     .Distinct())
        {
            var monitor = services.GetRequiredService(typeof(IOptionsMonitor<>).MakeGenericType(options));
            // Unwrapped, so a value that does not convert ends as it would in the host's own validation.
            try
            {
                typeof(IOptionsMonitor<>).MakeGenericType(options).GetMethod(nameof(IOptionsMonitor<object>.Get))!
                    .Invoke(monitor, BindingFlags.DoNotWrapExceptions, null, [Options.DefaultName], null);
            }
            catch (OptionsValidationException invalid)
            {
                failures.Add(invalid);
            }
        }
        if (failures.Count == 1) throw failures[0];
        if (failures.Count > 1) throw new AggregateException(failures);
    }
}
