using IfiDashboard.Client.Pages.Policy;
using IfiDashboard.Client.Tests.TestData;
using IfiDashboard.Compliance.Assessment;
using Microsoft.AspNetCore.Components.Forms;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Time.Testing;

namespace IfiDashboard.Client.Tests.Editing;

/// <summary>What every editing page needs besides its editor: a token for its forms, a clock, the fleet's statuses.</summary>
public static class EditingServices
{
    public static IServiceCollection AddEditingBasics(this IServiceCollection services, IFleetAssessments? assessments = null)
    {
        services.AddSingleton<AntiforgeryStateProvider>(new FixedAntiforgery());
        services.AddSingleton<TimeProvider>(new FakeTimeProvider(InstanceSpec.Now));
        services.AddSingleton(assessments ?? FakeAssessments.Of(Fleets.Of(Fleets.Mixed())));
        // The forms' impact previews need one; a test that renders the page registers its own after this.
        services.AddSingleton<IPolicyEditor>(FakePolicyEditor.Of(FakePolicyEditor.View(0)));
        return services;
    }

    /// <summary>The server's provider needs an HTTP request; a fixed token is enough to see the forms carry one.</summary>
    sealed class FixedAntiforgery : AntiforgeryStateProvider
    {
        public override AntiforgeryRequestToken? GetAntiforgeryToken() => new("test-token", "__RequestVerificationToken");
    }
}
