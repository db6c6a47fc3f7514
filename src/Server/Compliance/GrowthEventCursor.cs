using System.Buffers.Text;
using System.Text.Json;
using IfiDashboard.Compliance.Facts;

namespace IfiDashboard.Server.Compliance;

/// <summary>
/// Where a page of growth events ended: the last event's store key (start time, database, file, event class), which
/// is unique per instance. Pages are in that order, so events are neither skipped nor repeated however large the
/// window; the cursor is opaque to clients.
/// </summary>
internal sealed record GrowthEventCursor(long StartTicks, string DatabaseName, string FileName, int EventClass)
{
    const int MaxLength = 1024;

    public static GrowthEventCursor Of(GrowthEventFacts e) =>
        new(e.StartTime.UtcTicks, e.DatabaseName, e.LogicalFileName, e.EventClass);

    /// <summary>Store order: start time, then database, file and event class (ordinal).</summary>
    public static int Compare(GrowthEventFacts e, GrowthEventCursor c)
    {
        var byTime = e.StartTime.UtcTicks.CompareTo(c.StartTicks);
        if (byTime != 0) return byTime;
        var byDatabase = string.CompareOrdinal(e.DatabaseName, c.DatabaseName);
        if (byDatabase != 0) return byDatabase;
        var byFile = string.CompareOrdinal(e.LogicalFileName, c.FileName);
        return byFile != 0 ? byFile : e.EventClass.CompareTo(c.EventClass);
    }

    public static int Compare(GrowthEventFacts a, GrowthEventFacts b) => Compare(a, Of(b));

    public string Encode() =>
        Base64Url.EncodeToString(JsonSerializer.SerializeToUtf8Bytes(new object[] { "g1", StartTicks, DatabaseName, FileName, EventClass }));

    public static GrowthEventCursor? TryDecode(string text)
    {
        if (text.Length is 0 or > MaxLength || !Base64Url.IsValid(text))
            return null;
        try
        {
            using var document = JsonDocument.Parse(Base64Url.DecodeFromChars(text));
            var items = document.RootElement;
            if (items.ValueKind != JsonValueKind.Array || items.GetArrayLength() != 5 || items[0].ValueKind != JsonValueKind.String
                || items[0].GetString() != "g1" || !items[1].TryGetInt64(out var ticks)
                || ticks < DateTimeOffset.MinValue.UtcTicks || ticks > DateTimeOffset.MaxValue.UtcTicks
                || items[2].ValueKind != JsonValueKind.String || items[3].ValueKind != JsonValueKind.String
                || !items[4].TryGetInt32(out var eventClass))
                return null;
            return new GrowthEventCursor(ticks, items[2].GetString()!, items[3].GetString()!, eventClass);
        }
        catch (Exception e) when (e is JsonException or FormatException or InvalidOperationException)
        {
            return null;
        }
    }
}
