using System.Text.Json;
using System.Text.Json.Serialization;

namespace IfiDashboard.Simulator.Scenarios;

/// <summary>Reads scenario JSON (docs/simulator.md): camelCase properties, enums as strings, comments allowed.</summary>
public static class ScenarioFile
{
    public static readonly JsonSerializerOptions Options = new(JsonSerializerDefaults.Web)
    {
        ReadCommentHandling = JsonCommentHandling.Skip,
        AllowTrailingCommas = true,
        UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow,
        Converters = { new JsonStringEnumConverter() },
    };

    public static Scenario Load(string path)
    {
        try
        {
            return Parse(File.ReadAllText(path));
        }
        catch (JsonException e)
        {
            throw new InvalidDataException($"Scenario '{path}' is not valid: {e.Message}", e);
        }
    }

    public static Scenario Parse(string json)
    {
        var scenario = JsonSerializer.Deserialize<Scenario>(json, Options)
                       ?? throw new InvalidDataException("Scenario file is empty.");
        foreach (var instance in scenario.Instances)
            ScenarioValidation.Check(instance); // fail at load, naming the bad profile or history entry
        scenario.LinkAvailabilityGroups();
        return scenario;
    }
}

/// <summary>The demo fleet (scenarios/demo-fleet.json), embedded in this assembly.</summary>
public static class DemoScenario
{
    public static Scenario Load()
    {
        using var stream = typeof(DemoScenario).Assembly.GetManifestResourceStream("demo-fleet.json")
                           ?? throw new InvalidOperationException("The embedded demo fleet is missing.");
        using var reader = new StreamReader(stream);
        return ScenarioFile.Parse(reader.ReadToEnd());
    }
}
