using System.Security.Claims;
using IfiDashboard.Client.Components;
using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Compliance.Assessment;
using IfiDashboard.Compliance.Summary;
using IfiDashboard.Shared.Security;
using Microsoft.Extensions.DependencyInjection;
using OpenQA.Selenium;

namespace IfiDashboard.E2E.Tests.Editing;

/// <summary>
/// The policy page's impact preview in Chromium: it follows the rules form as a rule is edited, over the page's
/// circuit, and what it predicts is what the dashboard shows once the rules are saved.
/// </summary>
[Collection(EditingCollection.Name)]
public sealed class ImpactPreviewInBrowserTests(EditingFixture demo)
{
    Browser Browser => demo.Browser;
    string Url(string path) => demo.Server.BaseUrl + path;

    static readonly ClaimsPrincipal Admin = new(new ClaimsIdentity(
        [new Claim(ClaimTypes.Name, "e2e-admin"), new Claim(ClaimTypes.Role, DashboardRoles.Administrator)], "test"));

    Task<FleetAssessment> FleetAsync() => demo.Server.Services.GetRequiredService<IFleetAssessments>().GetAsync(CancellationToken.None);

    static StatusCounts Counts(FleetAssessment fleet) =>
        FleetSummaries.Count(fleet.Instances.Select(i => new AssessedInstance(i.Facts, i.Compliance)));

    int[] PreviewColumn(int column) => StatusText.Ordered
        .Select(s => int.Parse(Browser.Text($"[data-impact-preview=rules] [data-impact-count={s}] td:nth-of-type({column})"), System.Globalization.CultureInfo.InvariantCulture))
        .ToArray();

    [Fact]
    public async Task The_preview_follows_a_rule_as_it_is_edited_and_matches_the_statuses_after_saving()
    {
        var editor = demo.Server.Services.GetRequiredService<IPolicyEditor>();
        var stored = (await editor.GetAsync(CancellationToken.None)).Document.Rules;
        await demo.Server.AssessAsync();
        var before = await FleetAsync();
        try
        {
            Browser.Open(Url("policy"));
            // The stored rules, unedited, change nothing: shown once the circuit is up.
            Browser.WaitFor("[data-impact-preview=rules] [data-impact-none]");
            Assert.Equal(StatusText.Ordered.Select(s => Counts(before).Of(s)).ToArray(), PreviewColumn(1));

            // Rule 1 (Windows PCI hosts forbid IFI) made "not applicable": those hosts leave the compliance figure.
            Browser.Driver.FindElement(By.Name("Draft.Rules[0].Desired")).SendKeys("Not applicable");
            Browser.WaitFor("[data-impact-preview=rules] [data-impact-changes]");
            var listed = Browser.Attributes("[data-impact-preview=rules] [data-impact-instance]", "data-impact-instance");
            var predicted = Browser.Attributes("[data-impact-preview=rules] [data-impact-instance]", "data-after");
            var predictedCounts = PreviewColumn(2);
            Browser.Screenshot("policy-impact-preview");

            Browser.Click("[data-action=save-rules]");
            Browser.WaitUntil(d => d.Url.Contains("done=saved", StringComparison.Ordinal));
            await demo.Server.AssessAsync();
            var after = await FleetAsync();

            Assert.NotEmpty(listed);
            Assert.All(listed.Zip(predicted), p =>
                Assert.Equal(p.Second, after.Instances.Single(i => i.Registration.Name == p.First).Compliance.Status.ToString()));
            Assert.Equal(StatusText.Ordered.Select(s => Counts(after).Of(s)).ToArray(), predictedCounts);
            Assert.All(after.Instances.Where(i => !listed.Contains(i.Registration.Name)), i =>
                Assert.Equal(before.Find(i.Registration.Id)!.Compliance.Status, i.Compliance.Status));
        }
        finally
        {
            await editor.SaveRulesAsync(stored, Admin, CancellationToken.None);
            await demo.Server.AssessAsync();
        }
    }
}
