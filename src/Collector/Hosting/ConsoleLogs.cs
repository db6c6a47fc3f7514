using IfiDashboard.Shared.Hosting;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging.Console;

namespace IfiDashboard.Collector.Hosting;

/// <summary>
/// The console log of every deployable: one line per entry with a UTC timestamp (<c>simple</c>, the default), or one
/// JSON object per line with <c>Logging:Console:FormatterName=json</c>; under systemd the journal's own format.
/// </summary>
/// <remarks>
/// Both formatters bind the one section <c>Logging:Console:FormatterOptions</c>, and the simple one writes the level right
/// after the timestamp, so its format needs a trailing space that would end up inside JSON's timestamp: each gets its
/// own format here. A setting in that section still wins over these defaults.
/// </remarks>
public static class ConsoleLogs
{
    public const string SimpleTimestampFormat = "yyyy-MM-dd'T'HH:mm:ss.fff'Z' ";
    public const string JsonTimestampFormat = "yyyy-MM-dd'T'HH:mm:ss.fff'Z'";
    const string FormatterOptions = "Logging:Console:FormatterOptions";
    const string FormatterName = "Logging:Console:FormatterName";
    static readonly string[] Formatters = [ConsoleFormatterNames.Simple, ConsoleFormatterNames.Json, ConsoleFormatterNames.Systemd];

    public static TBuilder AddIfiConsoleLogs<TBuilder>(this TBuilder builder) where TBuilder : IHostApplicationBuilder
    {
        // The console logger silently falls back to its default for a formatter it does not know, so a misspelt name
        // would lose the format the log shipper expects without a word.
        if (builder.Configuration[FormatterName] is { } name && !Formatters.Contains(name, StringComparer.OrdinalIgnoreCase))
            throw new InvalidSettingException(FormatterName, $"one of {string.Join(", ", Formatters)}.");
        var configured = builder.Configuration.GetSection(FormatterOptions);
        // Without a formatter's name the console logger copies its own obsolete options over the formatter's, and the
        // lines of every entry, and these defaults, are lost.
        builder.Services.Configure<ConsoleLoggerOptions>(options => options.FormatterName ??= ConsoleFormatterNames.Simple);
        builder.Services.Configure<SimpleConsoleFormatterOptions>(options =>
        {
            if (configured[nameof(options.SingleLine)] is null) options.SingleLine = true;
            if (configured[nameof(options.UseUtcTimestamp)] is null) options.UseUtcTimestamp = true;
            options.TimestampFormat ??= SimpleTimestampFormat;
        });
        builder.Services.Configure<JsonConsoleFormatterOptions>(options =>
        {
            if (configured[nameof(options.UseUtcTimestamp)] is null) options.UseUtcTimestamp = true;
            options.TimestampFormat ??= JsonTimestampFormat;
        });
        return builder;
    }
}
