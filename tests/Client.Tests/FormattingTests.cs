using IfiDashboard.Client.Components;
using IfiDashboard.Client.Pages.Instances;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Shared.Snapshots;

namespace IfiDashboard.Client.Tests;

public sealed class FormattingTests
{
    [Theory]
    [InlineData(0, "0 s")]
    [InlineData(0.8, "0.8 s")]
    [InlineData(11.552, "12 s")]
    [InlineData(245, "4 min 05 s")]
    [InlineData(7380, "2 h 03 min")]
    [InlineData(273600, "3 d 4 h")]
    public void Durations_read_as_people_say_them(double seconds, string expected) =>
        Assert.Equal(expected, Quantities.Duration(seconds));

    [Theory]
    [InlineData(67_108_864, "64 MB")]
    [InlineData(214_748_364_800, "200 GB")]
    [InlineData(1_610_612_736, "1.5 GB")]
    [InlineData(512, "512 B")]
    public void Sizes_use_binary_units(double bytes, string expected) => Assert.Equal(expected, Quantities.Bytes(bytes));

    [Fact]
    public void Csv_quotes_commas_and_quotes_and_defuses_formulas()
    {
        var row = InstanceGridRow.From(new InstanceSpec { Id = 1, Name = "=HYPERLINK(\"x\")", Explanation = "off, as \"prod\" says" }.Build());

        var lines = InstanceCsv.Build([row], NoHistory).Split("\r\n");

        Assert.StartsWith("\"'=HYPERLINK(\"\"x\"\")\",", lines[1], StringComparison.Ordinal);
        Assert.Contains(",\"off, as \"\"prod\"\" says\",", lines[1], StringComparison.Ordinal);
    }

    static readonly Dictionary<long, DateTimeOffset> NoHistory = [];

    [Fact]
    public void Csv_carries_host_port_service_account_and_since_when_ifi_is_in_its_state()
    {
        var known = InstanceGridRow.From(new InstanceSpec { Id = 1, Name = "SQLFIN01", Ifi = IfiState.Disabled, Account = @"CORP\svc_sql" }.Build());
        var unknown = InstanceGridRow.From(new InstanceSpec { Id = 2, Name = "SQLGONE", Ifi = IfiState.Unknown, UnknownReason = "unreachable" }.Build());
        var since = new Dictionary<long, DateTimeOffset> { [1] = InstanceSpec.Now.AddDays(-21), [2] = InstanceSpec.Now.AddDays(-3) };

        var lines = InstanceCsv.Build([known, unknown], since).Split("\r\n");

        Assert.EndsWith(",Host,Port,Service account,IFI since (UTC)", lines[0], StringComparison.Ordinal);
        Assert.EndsWith(@",10.0.0.1,1433,CORP\svc_sql,2025-04-17 09:00:00", lines[1], StringComparison.Ordinal);
        // Since belongs to a known state: beside "Unknown: unreachable" it would date the state before.
        Assert.EndsWith(@",10.0.0.2,1433,NT Service\MSSQLSERVER,", lines[2], StringComparison.Ordinal);
    }

    // IFI unknown is not "0 s lost": the grid and its export say unknown, or at least the known part.
    // So is an instance where no growth could have been seen (no default trace read while IFI was not on).
    [Theory]
    [InlineData(0, 4, false, "unknown", "")]
    [InlineData(12, 4, false, "at least 12 s", "12")]
    [InlineData(12, 0, false, "12 s", "12")]
    [InlineData(0, 0, true, "unknown", "")]
    [InlineData(0, 0, false, "0 s", "0")]
    public void Time_lost_with_growth_of_unknown_ifi_is_unknown_not_zero(int lostSeconds, int unknownSeconds, bool withoutEvidence, string shown, string exported)
    {
        var row = InstanceGridRow.From(new InstanceSpec { Id = 1, Name = "SQL01" }.Build()) with
        {
            TimeLost30Days = TimeSpan.FromSeconds(lostSeconds), IfiUnknown30Days = TimeSpan.FromSeconds(unknownSeconds),
            WithoutEvidence = withoutEvidence,
        };

        Assert.Equal(shown, TimeLost.Show(row.TimeLost30Days, row.IfiUnknown30Days, row.WithoutEvidence, Quantities.Duration));
        Assert.Equal(exported, InstanceCsv.Build([row], NoHistory).Split("\r\n")[1].Split(',')[8]);
    }

    [Fact]
    public void Query_round_trips_through_its_url()
    {
        const string url = "instances?status=stale&env=Test&tag=pci&version=15&owner=dba%20team&policy=Forbidden&q=fin&sort=restore&dir=desc&page=3&size=100&cols=name,status,ifi";
        var values = Microsoft.AspNetCore.WebUtilities.QueryHelpers.ParseQuery(url[url.IndexOf('?')..]);

        var query = InstanceQuery.Parse(key => values.TryGetValue(key, out var value) ? value.ToString() : null);

        Assert.Equal(url, query.ToUrl());
        Assert.Equal(IfiDashboard.Compliance.Policy.DesiredState.Forbidden, query.Policy);
        Assert.Equal([GridColumn.Name, GridColumn.Status, GridColumn.Ifi], GridColumns.InOrder.Where(query.Columns.Shows));
    }

    [Fact]
    public void Unparseable_query_values_fall_back_to_defaults()
    {
        var values = new Dictionary<string, string>
        {
            ["status"] = " ", ["version"] = "fifteen", ["policy"] = "sometimes", ["sort"] = "nonsense", ["dir"] = "sideways",
            ["page"] = "-4", ["size"] = "7", ["cols"] = "colour,,size",
        };
        var query = InstanceQuery.Parse(values.GetValueOrDefault);

        Assert.Equal(new InstanceQuery(), query);
        Assert.Equal("instances", query.ToUrl());
    }

    [Fact]
    public void The_grid_shows_the_release_and_keeps_the_build_for_the_tooltip()
    {
        var row = InstanceGridRow.From(new InstanceSpec { Id = 1, Name = "a", ProductVersion = "15.0.4385.2" }.Build());

        Assert.Equal("2019 RTM CU28", row.ShortVersion);
        Assert.Equal("SQL Server 2019 RTM CU28 (15.0.4385.2)", row.Version);
    }

    public static TheoryData<double?, int, string?> EvidenceNotes => new()
    {
        // hours of evidence before the windows' end (null: no trace read), window in days, note
        { null, 90, "no growth evidence read yet" },
        { 24 * 91, 90, null },
        { 24 * 90, 90, null },
        { 24 * 2 + 5, 90, "evidence covers 2 d, since 2026-11-22 07:00 +00:00" },
        { 24 * 2 + 5, 7, "evidence covers 2 d, since 2026-11-22 07:00 +00:00" },
        { 3, 7, "evidence covers 3 h, since 2026-11-24 09:00 +00:00" },
        { 0.1, 7, "evidence covers 6 min, since 2026-11-24 11:54 +00:00" },
    };

    // Item 19: a window that starts before the evidence says how much of it the evidence covers.
    [Theory]
    [MemberData(nameof(EvidenceNotes))]
    public void A_time_lost_window_says_how_far_back_its_evidence_reaches(double? hours, int days, string? note)
    {
        var end = new DateTimeOffset(2026, 11, 24, 12, 0, 0, TimeSpan.Zero);
        var lost = new TimeLost(TimeSpan.Zero, TimeSpan.Zero, TimeSpan.FromMinutes(4), TimeSpan.Zero)
        {
            EvidenceSince = hours is { } h ? end.AddHours(-h) : null,
            WindowsEndAt = end,
        };

        Assert.Equal(note, lost.EvidenceNote(days));
    }
}
