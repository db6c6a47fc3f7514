using System.Text.Json;
using IfiDashboard.Simulator.Scenarios;

namespace IfiDashboard.Simulator.Tests.Engine;

public sealed class ScenarioHistoryJsonTests
{
    private const string Json = """
        {
          "instances": [
            {
              "name": "sql01",
              "profile": "2022",
              "utcOffsetMinutes": -300,
              "databases": [
                {
                  "name": "Sales", "id": 7, "encryptionState": 3, "recoveryModel": "FULL",
                  "files": [
                    { "name": "Sales", "physicalName": "D:\\Data\\Sales.mdf", "type": "Rows", "sizePages": 1280, "growth": 8192 },
                    { "name": "Sales_log", "physicalName": "L:\\Log\\Sales_log.ldf", "type": "LOG", "sizePages": 640,
                      "maxSizePages": 268435456, "growth": 10, "isPercentGrowth": true }
                  ]
                }
              ],
              "defaultTrace": { "enabled": false, "maxFiles": 5, "eventsPerFile": 40, "firstFileNumber": 120, "rolloverAfterEvents": [1] },
              "growthEvents": [
                { "eventClass": 93, "database": "Sales", "fileName": "Sales_log", "startTime": "2026-11-20T10:00:00Z",
                  "durationMicroseconds": 1500000, "growthPages": 8192, "spid": 61, "applicationName": "app",
                  "hostName": "web1", "loginName": "app_rw" }
              ],
              "errorLogZeroing": [ { "time": "2026-11-20T10:00:00Z", "physicalName": "L:\\Log\\Sales_log.ldf", "fromPage": 1, "toPage": 63, "elapsedMs": null } ],
              "backups": [ { "database": "Sales", "type": "D", "start": "2026-11-20T01:00:00Z", "finish": "2026-11-20T01:10:00Z", "backupSize": 1000, "compressedBackupSize": null } ],
              "restores": [ { "restoreDate": "2026-11-21T01:00:00Z", "destinationDatabase": "Sales", "backupSetId": 1, "restoreType": "D", "replace": true } ]
            }
          ]
        }
        """;

    [Fact]
    public void New_history_properties_load_from_camel_case_json()
    {
        var instance = Assert.Single(ScenarioFile.Parse(Json).Instances);

        Assert.Equal(-300, instance.UtcOffsetMinutes);
        var database = Assert.Single(instance.Databases);
        Assert.Equal(("Sales", 7, 3, true), (database.Name, database.Id, database.EncryptionState, database.IsEncrypted));
        Assert.Equal(DatabaseFileType.Log, database.Files[1].Type);
        Assert.True(database.Files[1].IsPercentGrowth);
        Assert.Equal((false, 40, 120), (instance.DefaultTrace.Enabled, instance.DefaultTrace.EventsPerFile, instance.DefaultTrace.FirstFileNumber));
        Assert.Equal([1], instance.DefaultTrace.RolloverAfterEvents);
        var growth = Assert.Single(instance.GrowthEvents);
        Assert.Equal((93, 1_500_000L, 61, "app_rw"), (growth.EventClass, growth.DurationMicroseconds, growth.Spid, growth.LoginName));
        Assert.Null(Assert.Single(instance.ErrorLogZeroing).ElapsedMs);
        Assert.Null(Assert.Single(instance.Backups).CompressedBackupSize);
        Assert.True(Assert.Single(instance.Restores).Replace);
    }

    [Fact]
    public void History_survives_a_serialize_and_load_round_trip()
    {
        var scenario = ScenarioFile.Parse(Json);

        var again = ScenarioFile.Parse(JsonSerializer.Serialize(scenario, ScenarioFile.Options));

        Assert.Equal(JsonSerializer.Serialize(scenario, ScenarioFile.Options), JsonSerializer.Serialize(again, ScenarioFile.Options));
        Assert.Equal(new DateTimeOffset(2026, 11, 20, 10, 0, 0, TimeSpan.Zero), again.Instances[0].GrowthEvents[0].StartTime);
        Assert.DoesNotContain("isEncrypted", JsonSerializer.Serialize(scenario, ScenarioFile.Options));
    }

    [Fact]
    public void Instances_without_history_get_defaults()
    {
        var instance = Assert.Single(ScenarioFile.Parse("""{ "instances": [ { "name": "a", "profile": "2019" } ] }""").Instances);

        Assert.Empty(instance.Databases);
        Assert.Empty(instance.GrowthEvents);
        Assert.True(instance.DefaultTrace.Enabled);
        Assert.Equal((5, 0), (instance.DefaultTrace.MaxFiles, instance.UtcOffsetMinutes));
    }

    // No SQL Server from 2022 answers ENCRYPT_NOT_SUP: a scenario that says so is refused, not played.
    [Theory]
    [InlineData("2022", true)]
    [InlineData("2025", true)]
    [InlineData("2019", false)]
    public void Encryption_not_supported_is_refused_for_2022_and_later(string profile, bool refused)
    {
        var json = $$"""{ "instances": [ { "name": "plain", "profile": "{{profile}}", "encryption": "NotSupported" } ] }""";

        var error = Record.Exception(() => ScenarioFile.Parse(json));

        Assert.Equal(refused, error is InvalidDataException { Message: var m } && m.Contains("NotSupported", StringComparison.Ordinal));
    }

    [Theory]
    [InlineData("""{ "eventClass": 91, "database": "master", "fileName": "master" }""", "event class 91")]
    [InlineData("""{ "eventClass": 92, "database": "nope", "fileName": "nope" }""", "unknown database 'nope'")]
    public void Growth_events_that_cannot_happen_fail_at_load(string growth, string problem)
    {
        var json = $$"""{ "instances": [ { "name": "bad", "profile": "2019", "growthEvents": [ {{growth}} ] } ] }""";

        var error = Assert.Throws<InvalidDataException>(() => ScenarioFile.Parse(json));

        Assert.Contains("'bad'", error.Message);
        Assert.Contains(problem, error.Message);
    }

    [Fact]
    public void Misspelled_history_property_is_rejected()
    {
        Assert.Throws<JsonException>(() => ScenarioFile.Parse(
            """{ "instances": [ { "name": "a", "profile": "2019", "defaultTrace": { "enable": false } } ] }"""));
    }
}
