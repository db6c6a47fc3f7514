using System.Net;
using System.Net.Http.Json;
using IfiDashboard.Server.Api.Changes;
using IfiDashboard.Server.Tests.Security;
using IfiDashboard.Shared.Security;

namespace IfiDashboard.Server.Tests.Api.Changes;

/// <summary>The /integrations page: an Administrator adds a change webhook (the secret shown on that answer only) and deletes it.</summary>
public sealed class IntegrationsPageTests
{
    static readonly System.Text.Json.JsonSerializerOptions Web = new(System.Text.Json.JsonSerializerDefaults.Web);

    static async Task<HttpResponseMessage> PostAsync(HttpClient client, string path, string form, params (string Name, string Value)[] fields) =>
        await client.PostAsync(path, new FormUrlEncodedContent(
        [
            new("_handler", form), new("__RequestVerificationToken", await TestSignIn.FormTokenAsync(client)),
            .. fields.Select(f => new KeyValuePair<string, string>(f.Name, f.Value)),
        ]));

    [Fact]
    public async Task An_administrator_adds_a_change_webhook_sees_its_secret_once_and_deletes_it_an_operator_is_refused()
    {
        await using var host = new ApiHost();
        var admin = TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Administrator);
        var operatorClient = TestSignIn.AsRole(host.CreateClient(), DashboardRoles.Operator);

        var refusedPage = await operatorClient.GetAsync("/integrations");
        var refusedPost = await PostAsync(operatorClient, "/integrations", "change-webhook",
            ("Form.Name", "cmdb"), ("Form.Url", "https://cmdb.example.test/hook"), ("event", "registered"));
        var created = await PostAsync(admin, "/integrations", "change-webhook",
            ("Form.Name", "cmdb"), ("Form.Url", "https://cmdb.example.test/hook?token=path-token-123"), ("event", "registered"), ("event", "ifiLost"));
        var createdPage = new AngleSharp.Html.Parser.HtmlParser().ParseDocument(await created.Content.ReadAsStringAsync());
        var secret = createdPage.QuerySelector("[data-webhook-secret]")?.TextContent;
        var listed = (await admin.GetFromJsonAsync<List<ChangeWebhookResponse>>("/api/v1/change-webhooks", Web))!;
        var later = await admin.GetStringAsync("/integrations");
        var confirm = await admin.GetStringAsync($"/integrations?delete={listed[0].Id}");
        var deleted = await PostAsync(admin, $"/integrations?delete={listed[0].Id}", "delete-change-webhook", ("Deletion.Id", listed[0].Id.ToString(System.Globalization.CultureInfo.InvariantCulture)));

        Assert.Equal(HttpStatusCode.Forbidden, refusedPage.StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, refusedPost.StatusCode);
        Assert.Equal(HttpStatusCode.OK, created.StatusCode);
        Assert.Equal(43, secret?.Length);
        var webhook = Assert.Single(listed);
        Assert.Equal(("cmdb", "https://cmdb.example.test"), (webhook.Name, webhook.UrlOrigin));
        Assert.Equal([ChangeEvent.Registered, ChangeEvent.IfiLost], webhook.Events);
        Assert.Equal(TestSignIn.UserName(DashboardRoles.Administrator), webhook.CreatedBy);
        Assert.Contains("https://cmdb.example.test", later, StringComparison.Ordinal);
        Assert.DoesNotContain(secret!, later, StringComparison.Ordinal);
        Assert.DoesNotContain("path-token-123", later, StringComparison.Ordinal);
        Assert.Contains("data-action=\"delete-change-webhook\"", confirm, StringComparison.Ordinal);
        Assert.True(deleted.IsSuccessStatusCode, $"delete answered {(int)deleted.StatusCode}");
        Assert.Empty((await admin.GetFromJsonAsync<List<ChangeWebhookResponse>>("/api/v1/change-webhooks", Web))!);
    }
}
