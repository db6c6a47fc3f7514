using IfiDashboard.Client.Components.Forms;
using IfiDashboard.Client.Pages.Policy;

namespace IfiDashboard.Client.Tests.Policy;

public sealed class WaiverGrantTests
{
    [Theory]
    [InlineData("2030-06-01T00:00", "2030-06-01T00:00:00+00:00")]
    [InlineData("2030-06-01T13:45:30", "2030-06-01T13:45:30+00:00")]
    [InlineData("2030-06-01", "2030-06-01T00:00:00+00:00")]
    public void The_expiry_is_read_as_utc_whatever_the_server_time_zone(string typed, string expected)
    {
        var request = new WaiverGrant { InstanceId = "4", Reason = " patch window ", ExpiresAt = typed }.Validate(new FormErrors());

        Assert.Equal(DateTimeOffset.Parse(expected, System.Globalization.CultureInfo.InvariantCulture), request!.Value.ExpiresAt);
        Assert.Equal(TimeSpan.Zero, request.Value.ExpiresAt.Offset);
        Assert.Equal((4L, "patch window"), (request.Value.InstanceId, request.Value.Reason));
    }

    [Fact]
    public void The_editors_refusals_map_to_their_fields_without_the_parameter_suffix()
    {
        var past = new ArgumentException("The expiry must be in the future.", "expiresAt");
        var unknown = new ArgumentException("No active instance has id 9.", "instanceId");

        Assert.Equal(("Grant.ExpiresAt", "The expiry must be in the future."), (WaiverGrant.FieldOf(past), WaiverGrant.MessageOf(past)));
        Assert.Equal("Grant.InstanceId", WaiverGrant.FieldOf(unknown));
    }

    [Fact]
    public void A_blank_form_expires_a_week_ahead_on_the_hour()
    {
        var blank = WaiverGrant.Blank(new DateTimeOffset(2025, 5, 8, 9, 41, 12, TimeSpan.FromHours(2)));

        Assert.Equal("2025-05-15T07:00", blank.ExpiresAt);
    }
}
