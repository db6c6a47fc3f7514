namespace IfiDashboard.Simulator.Scenarios;

/// <summary>
/// Load-time checks of the history a scenario describes, so a typo fails when the file loads with a message naming
/// the instance, instead of as an odd answer to some later query.
/// </summary>
internal static class ScenarioValidation
{
    public static void Check(ScenarioInstance instance)
    {
        var profile = VersionProfiles.Get(instance.Profile); // names the bad profile
        // [D] SQL Server 2022 and later always offer TLS (a self-signed certificate at the least): none answers
        // ENCRYPT_NOT_SUP. [U] older builds also make a self-signed certificate; the mode stays for them and for
        // listeners that are not SQL Server.
        Require(instance.Encryption != EncryptionSupport.NotSupported || profile.Major < 16, instance,
            $"encryption NotSupported is not an answer SQL Server {profile.Name} gives; use Optional or Required");
        var databases = DatabaseLayout.For(instance);
        var duplicate = databases.GroupBy(d => d.Id).FirstOrDefault(g => g.Count() > 1);
        Require(duplicate is null, instance, $"database_id {duplicate?.Key} is used twice");

        var trace = instance.DefaultTrace;
        Require(trace.MaxFiles >= 1 && trace.EventsPerFile >= 1, instance, "defaultTrace needs maxFiles and eventsPerFile of 1 or more");
        foreach (var growth in instance.GrowthEvents)
        {
            Require(growth.EventClass is >= 92 and <= 95, instance, $"growth event class {growth.EventClass} is not 92 to 95");
            Require(databases.Any(d => Same(d.Name, growth.Database)), instance,
                $"growth event names unknown database '{growth.Database}'");
        }

        foreach (var backup in instance.Backups)
        {
            Require(backup.Type.Length == 1, instance, $"backup type '{backup.Type}' is not one character");
        }
    }

    private static void Require(bool condition, ScenarioInstance instance, string problem)
    {
        if (!condition)
        {
            throw new InvalidDataException($"Scenario instance '{instance.Name}': {problem}.");
        }
    }

    private static bool Same(string a, string b) => string.Equals(a, b, StringComparison.OrdinalIgnoreCase);
}
