using IfiDashboard.Server.Demo;
using IfiDashboard.Server.Security;
using Microsoft.AspNetCore.Builder;
using Microsoft.Extensions.Configuration;

namespace IfiDashboard.Server.Tests.Security;

/// <summary>
/// Four-eyes approval of waivers is on unless turned off (issue 28: it was off by default, so the evidence report
/// printed "not approved" for every waiver); the demo, where one person tries the product alone, turns it off unless
/// it is set.
/// </summary>
public sealed class FourEyesDefaultTests
{
    static bool Bound(IConfiguration configuration) =>
        configuration.GetSection(SignInOptions.Section).Get<SignInOptions>()?.WaiversNeedApproval ?? new SignInOptions().WaiversNeedApproval;

    [Fact]
    public void A_server_without_the_setting_needs_a_second_person_for_each_waiver() =>
        Assert.True(Bound(new ConfigurationBuilder().Build()));

    [Fact]
    public void An_explicit_false_turns_it_off() =>
        Assert.False(Bound(new ConfigurationBuilder().AddInMemoryCollection([new("Auth:WaiversNeedApproval", "false")]).Build()));

    [Theory]
    [InlineData(null, false)]
    [InlineData("true", true)]
    public void The_demo_turns_it_off_unless_it_is_set(string? given, bool expected)
    {
        var builder = WebApplication.CreateBuilder(given is null ? [] : [$"--Auth:WaiversNeedApproval={given}"]);

        DemoMode.Configure(builder);

        Assert.Equal(expected, Bound(builder.Configuration));
    }
}
