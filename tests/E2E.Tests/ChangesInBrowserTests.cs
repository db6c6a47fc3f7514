using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Shared.Snapshots;
using Microsoft.Extensions.DependencyInjection;
using OpenQA.Selenium;

namespace IfiDashboard.E2E.Tests;

/// <summary>
/// The fleet changes page in Chromium: two demo instances in different environments lose or gain IFI at a restart,
/// seen by a real poll each; the page lists both, and its filters narrow the list to one environment and one kind.
/// </summary>
[Collection(DemoCollection.Name)]
public sealed class ChangesInBrowserTests(DemoFixture demo)
{
    Browser Browser => demo.Browser;
    string Url(string path) => demo.Server.BaseUrl + path;

    [Fact]
    public async Task A_restart_that_changed_ifi_is_listed_and_the_filters_narrow_the_list_to_an_environment_and_a_kind()
    {
        var fleet = await demo.Server.Services.GetRequiredService<IFleetAssessments>().GetAsync(CancellationToken.None);
        var known = fleet.Instances.Where(i => i.State.IfiState != IfiState.Unknown).ToList();
        var first = known.First(i => i.State.IfiState == IfiState.Enabled).Registration;
        var second = known.First(i => i.Registration.Environment != first.Environment).Registration;
        var flipped = new[] { first, second }.Select(r => (Registration: r, Simulated: demo.Server.Simulated(r.Name))).ToList();
        var original = flipped.Select(f => (f.Simulated.IfiEnabled, f.Simulated.LastStartupTime)).ToList();
        try
        {
            foreach (var (registration, simulated) in flipped)
            {
                // The DBA changed the privilege and restarted the service: the next poll sees both.
                simulated.IfiEnabled = !simulated.IfiEnabled;
                simulated.LastStartupTime = DateTimeOffset.UtcNow.AddMinutes(-1);
                await demo.Server.PollLandsAsync(registration);
            }
            await demo.Server.AssessAsync();

            Browser.Open(Url("changes"));
            Browser.WaitFor("table[data-table=changes]");
            var listed = Browser.Attributes("tr[data-change-row][data-kind^=ifi]", "data-instance");
            Assert.Contains(first.Name, listed);
            Assert.Contains(second.Name, listed);
            var firstRow = $"tr[data-change-row][data-kind=ifi-lost][data-instance='{first.Name}']";
            Assert.Contains("IFI lost after the restart on", Browser.Text($"{firstRow} td.message"), StringComparison.Ordinal);
            Browser.Screenshot("changes");

            // By keyboard: the environment of the first instance, then IFI lost only.
            Browser.Driver.FindElement(By.CssSelector("select[name=env]")).SendKeys(first.Environment);
            Browser.Driver.FindElement(By.CssSelector("select[name=kind]")).SendKeys("IFI lost");
            Browser.Driver.FindElement(By.CssSelector("form.filters button[type=submit]")).Click();
            Browser.WaitUntil(d => d.Url.Contains("kind=ifi-lost", StringComparison.Ordinal));
            Browser.WaitFor("table[data-table=changes]");

            Assert.Contains(first.Name, Browser.Attributes("tr[data-change-row]", "data-instance"));
            Assert.DoesNotContain(second.Name, Browser.Attributes("tr[data-change-row]", "data-instance"));
            Assert.All(Browser.Attributes("tr[data-change-row]", "data-kind"), k => Assert.Equal("ifi-lost", k));
            Assert.All(Browser.Texts("tr[data-change-row] td:nth-of-type(2)"), e => Assert.Equal(first.Environment, e));
            Browser.Screenshot("changes-filtered");

            Browser.Click($"{firstRow} a");
            Browser.WaitUntil(d => d.Url.EndsWith($"instances/{first.Id}", StringComparison.Ordinal));
            Assert.Contains("IFI lost after the restart on", Browser.Text("ol.timeline"), StringComparison.Ordinal);
        }
        finally
        {
            foreach (var ((registration, simulated), (ifi, started)) in flipped.Zip(original))
            {
                (simulated.IfiEnabled, simulated.LastStartupTime) = (ifi, started);
                await demo.Server.PollLandsAsync(registration);
            }
            await demo.Server.AssessAsync();
        }
    }
}
