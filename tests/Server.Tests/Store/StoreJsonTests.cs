using Dapper;
using IfiDashboard.Compliance.Policy;
using IfiDashboard.Server.Alerts.Mail;
using IfiDashboard.Store.Alerts.Mail;
using IfiDashboard.Store;

namespace IfiDashboard.Server.Tests.Store;

/// <summary>
/// JSON columns go through one handler per type (<see cref="StoreJson"/>), on both stores: the text stored is the text
/// the store has always held (non-ASCII escaped, names in camel case, enums by name), it reads back as the same value
/// through a row class and a positional record, and a NULL reads as no value.
/// </summary>
public sealed class StoreJsonTests
{
    sealed class ProbeRow
    {
        public long Id { get; init; }
        public JsonColumn<IReadOnlyList<string>> Tags { get; init; } = new([]);
        public JsonColumn<IReadOnlyList<MailAttachment>>? Files { get; init; }
        public JsonColumn<IReadOnlyList<PolicyRule>>? Rules { get; init; }
    }

    sealed record ProbeRecord(long Id, JsonColumn<IReadOnlyList<string>> Tags);

    [Theory, StoreProviders]
    public async Task Json_columns_are_stored_as_their_text_and_read_back_as_the_same_values(StoreProvider provider)
    {
        await using var store = await TestStore.CreateMigratedAsync(provider);
        await using var connection = await store.OpenAsync();
        await connection.ExecuteAsync("CREATE TABLE store_json_probe (id BIGINT NOT NULL, tags TEXT NOT NULL, files TEXT, rules TEXT);");
        IReadOnlyList<string> tags = ["pci", "Zürich \"DC\""];
        IReadOnlyList<MailAttachment> files = [new MailAttachment("a.csv", "text/csv", [1, 2, 3])];
        IReadOnlyList<PolicyRule> rules = [new PolicyRule { Name = "pci", Tags = ["pci"], Desired = DesiredState.Forbidden }];
        await connection.ExecuteAsync("INSERT INTO store_json_probe (id, tags, files, rules) VALUES (1, @tags, @files, @rules), (2, @none, @noFiles, NULL);", new
        {
            tags = new JsonColumn<IReadOnlyList<string>>(tags),
            files = new JsonColumn<IReadOnlyList<MailAttachment>>(files),
            rules = new JsonColumn<IReadOnlyList<PolicyRule>>(rules),
            none = new JsonColumn<IReadOnlyList<string>>([]),
            noFiles = (JsonColumn<IReadOnlyList<MailAttachment>>?)null,
        });

        var texts = (await connection.QueryAsync<(string Tags, string? Files, string? Rules)>(
            "SELECT tags, files, rules FROM store_json_probe ORDER BY id;")).ToList();
        var rows = (await connection.QueryAsync<ProbeRow>(
            "SELECT id AS Id, tags AS Tags, files AS Files, rules AS Rules FROM store_json_probe ORDER BY id;")).ToList();
        var records = (await connection.QueryAsync<ProbeRecord>("SELECT id, tags FROM store_json_probe ORDER BY id;")).ToList();

        Assert.Equal(
            [("[\"pci\",\"Z\\u00FCrich \\u0022DC\\u0022\"]", "[{\"fileName\":\"a.csv\",\"contentType\":\"text/csv\",\"content\":\"AQID\"}]",
              "[{\"name\":\"pci\",\"desired\":\"Forbidden\",\"environment\":null,\"tags\":[\"pci\"],\"owner\":null}]"),
             ("[]", null, null)],
            texts);
        Assert.Equal([tags, []], rows.Select(r => r.Tags.Value));
        Assert.Equal(files[0].Content, Assert.Single(rows[0].Files!.Value).Content);
        Assert.Null(rows[1].Files);
        var rule = Assert.Single(rows[0].Rules!.Value);
        Assert.Equal(("pci", DesiredState.Forbidden), (rule.Name, rule.Desired));
        Assert.Equal(["pci"], rule.Tags);
        Assert.Null(rows[1].Rules);
        Assert.Equal([tags, []], records.Select(r => r.Tags.Value));
    }
}
