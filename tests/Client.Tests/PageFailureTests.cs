using Bunit;
using IfiDashboard.Client.Layout;
using IfiDashboard.Client.Tests.Rendering;
using Microsoft.AspNetCore.Components;
using Microsoft.AspNetCore.Components.Rendering;

namespace IfiDashboard.Client.Tests;

/// <summary>
/// What every page shows when it cannot do its work: the banner while the store is away, and the error boundary
/// around the page for what the page did not catch itself.
/// </summary>
public sealed class PageFailureTests : ComponentTest
{
    static readonly DateTimeOffset Since = new(2026, 11, 27, 14, 7, 30, TimeSpan.Zero);

    [Fact]
    public void While_the_store_is_away_the_banner_says_how_old_the_data_shown_is()
    {
        Store.Outage = new StoreOutage(Since, DataAsOf: Since.AddMinutes(-5));

        var banner = Render<StoreUnavailableBanner>().Find("[data-store-unavailable]");

        Assert.Equal("alert", banner.GetAttribute("role"));
        Assert.Contains("Store unavailable, showing data as of 14:02 UTC", banner.TextContent.Trim(), StringComparison.Ordinal);
        Assert.Contains("since 14:07 UTC", banner.TextContent, StringComparison.Ordinal);
    }

    [Fact]
    public void While_the_store_answers_there_is_no_banner()
    {
        Assert.Empty(Render<StoreUnavailableBanner>().FindAll("[data-store-unavailable]"));
    }

    [Fact]
    public void A_page_that_throws_is_replaced_by_a_message_with_its_trace_id_and_not_the_exception()
    {
        var page = Render<PageErrorBoundary>(parameters => parameters.Add(p => p.ChildContent, (RenderFragment)(builder =>
        {
            builder.OpenComponent<Throwing>(0);
            builder.CloseComponent();
        })));

        AssertReportedWithTraceId(page.Find("[data-page-failure]").TextContent, Throwing.Message);
        Assert.Equal("alert", page.Find("[data-page-failure]").GetAttribute("role"));
    }

    sealed class Throwing : ComponentBase
    {
        public const string Message = "Failed to connect to 127.0.0.1:6301";

        protected override void BuildRenderTree(RenderTreeBuilder builder) => throw new InvalidOperationException(Message);
    }
}
