using IfiDashboard.Compliance.Policy;
using static IfiDashboard.Compliance.Tests.Fleet;

namespace IfiDashboard.Compliance.Tests;

public class WaiverTests
{
    static Waiver For(long instanceId, DateTimeOffset grantedAt, DateTimeOffset expiresAt, string author = "alice") => new()
    {
        InstanceId = instanceId,
        Reason = "vendor support case 1234",
        Author = author,
        GrantedAt = grantedAt,
        ExpiresAt = expiresAt,
    };

    public static TheoryData<string, double, double, bool> Windows => new()
    {
        { "granted yesterday, expires tomorrow", -24, 24, true },
        { "expires exactly now", -24, 0, false },
        { "expires one second from now", -24, 1.0 / 3600, true },
        { "expired an hour ago", -48, -1, false },
        { "granted exactly now", 0, 24, true },
        { "granted in an hour", 1, 24, false },
    };

    [Theory]
    [MemberData(nameof(Windows))]
    public void Waiver_counts_only_between_grant_and_expiry(string because, double grantedHours, double expiresHours,
        bool active)
    {
        var waiver = For(1, Now.AddHours(grantedHours), Now.AddHours(expiresHours));

        Assert.True(active == waiver.IsActiveAt(Now), because);
    }

    [Fact]
    public void Expired_waiver_is_not_returned_as_active()
    {
        var policy = new PolicyDocument { Version = 1, Waivers = [For(1, Now.AddDays(-10), Now)] };

        Assert.Null(PolicyEvaluator.ActiveWaiver(policy, 1, Now));
        Assert.NotNull(PolicyEvaluator.ActiveWaiver(policy, 1, Now.AddTicks(-1)));
    }

    [Fact]
    public void Waiver_for_another_instance_does_not_apply()
    {
        var policy = new PolicyDocument { Version = 1, Waivers = [For(2, Now.AddDays(-1), Now.AddDays(1))] };

        Assert.Null(PolicyEvaluator.ActiveWaiver(policy, 1, Now));
    }

    [Fact]
    public void Of_two_active_waivers_the_longer_lasting_one_is_shown()
    {
        var policy = new PolicyDocument
        {
            Version = 1,
            Waivers = [For(1, Now.AddDays(-1), Now.AddDays(30), "bob"), For(1, Now.AddDays(-1), Now.AddDays(2), "alice")],
        };

        Assert.Equal("bob", PolicyEvaluator.ActiveWaiver(policy, 1, Now)?.Author);
    }
}
