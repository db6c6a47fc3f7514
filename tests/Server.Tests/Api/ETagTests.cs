using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;

namespace IfiDashboard.Server.Tests.Api;

/// <summary>One server for the class; each test writes instances of its own.</summary>
public sealed class ETagTests(SharedApiHost shared) : IClassFixture<SharedApiHost>
{
    [Fact]
    public async Task Get_one_answers_304_while_unchanged_and_200_after_a_change()
    {
        var host = shared.Host;
        var client = await host.CmdbClientAsync();
        await client.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01"));
        var etag = (await client.GetAsync("/api/v1/instances/CI001")).Headers.ETag!;

        var notModified = await Conditional(client, "/api/v1/instances/CI001", etag);
        await client.PutAsJsonAsync("/api/v1/instances/CI001", ApiTestData.PutBody("SQL01", port: 2000));
        var modified = await Conditional(client, "/api/v1/instances/CI001", etag);

        Assert.Equal(HttpStatusCode.NotModified, notModified.StatusCode);
        Assert.Equal(etag, notModified.Headers.ETag);
        Assert.Equal(HttpStatusCode.OK, modified.StatusCode);
        Assert.NotEqual(etag, modified.Headers.ETag);
    }

    [Fact]
    public async Task List_answers_304_until_an_instance_on_the_page_changes_or_retires()
    {
        var host = shared.Host;
        var client = await host.CmdbClientAsync();
        await client.PutAsJsonAsync("/api/v1/instances/CI011", ApiTestData.PutBody("SQL11"));
        await client.PutAsJsonAsync("/api/v1/instances/CI012", ApiTestData.PutBody("SQL12"));
        var etag = (await client.GetAsync("/api/v1/instances")).Headers.ETag!;

        var unchanged = await Conditional(client, "/api/v1/instances", etag);
        await client.PutAsJsonAsync("/api/v1/instances/CI012", ApiTestData.PutBody("SQL12"));
        var afterNoOpPut = await Conditional(client, "/api/v1/instances", etag);
        await client.DeleteAsync("/api/v1/instances/CI011");
        var afterRetire = await Conditional(client, "/api/v1/instances?includeRetired=true", etag);

        Assert.Equal(HttpStatusCode.NotModified, unchanged.StatusCode);
        Assert.Equal(HttpStatusCode.NotModified, afterNoOpPut.StatusCode);
        Assert.Equal(HttpStatusCode.OK, afterRetire.StatusCode);
    }

    [Fact]
    public async Task Put_with_a_stale_if_match_is_412_and_changes_nothing()
    {
        var host = shared.Host;
        var client = await host.CmdbClientAsync();
        var first = await client.PutAsJsonAsync("/api/v1/instances/CI021", ApiTestData.PutBody("SQL21"));
        var staleTag = first.Headers.ETag!;
        var second = await client.PutAsJsonAsync("/api/v1/instances/CI021", ApiTestData.PutBody("SQL21", port: 2000));

        var stale = await PutIfMatch(client, "CI021", staleTag.Tag, ApiTestData.PutBody("SQL21", port: 3000));
        var current = await PutIfMatch(client, "CI021", second.Headers.ETag!.Tag, ApiTestData.PutBody("SQL21", port: 4000));
        var instance = await client.GetFromJsonAsync<IfiDashboard.Server.Api.Inventory.InstanceResource>("/api/v1/instances/CI021");

        Assert.Equal(HttpStatusCode.PreconditionFailed, stale.StatusCode);
        Assert.Equal("application/problem+json", stale.Content.Headers.ContentType?.MediaType);
        Assert.Equal(HttpStatusCode.OK, current.StatusCode);
        Assert.Equal(4000, instance!.Port);
    }

    [Fact]
    public async Task If_match_on_a_missing_instance_is_412_and_if_none_match_star_only_creates()
    {
        var host = shared.Host;
        var client = await host.CmdbClientAsync();

        var ifMatchMissing = await PutIfMatch(client, "CI031", "*", ApiTestData.PutBody("SQL31"));
        var createOnly = await PutWith(client, "CI031", r => r.Headers.IfNoneMatch.Add(EntityTagHeaderValue.Any), ApiTestData.PutBody("SQL31"));
        var createOnlyAgain = await PutWith(client, "CI031", r => r.Headers.IfNoneMatch.Add(EntityTagHeaderValue.Any), ApiTestData.PutBody("SQL31", port: 2000));
        var ifMatchStar = await PutIfMatch(client, "CI031", "*", ApiTestData.PutBody("SQL31", port: 3000));

        Assert.Equal(HttpStatusCode.PreconditionFailed, ifMatchMissing.StatusCode);
        Assert.Equal(HttpStatusCode.Created, createOnly.StatusCode);
        Assert.Equal(HttpStatusCode.PreconditionFailed, createOnlyAgain.StatusCode);
        Assert.Equal(HttpStatusCode.OK, ifMatchStar.StatusCode);
    }

    static Task<HttpResponseMessage> Conditional(HttpClient client, string path, EntityTagHeaderValue etag)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, path);
        request.Headers.IfNoneMatch.Add(etag);
        return client.SendAsync(request);
    }

    static Task<HttpResponseMessage> PutIfMatch(HttpClient client, string externalKey, string etag, object body) =>
        PutWith(client, externalKey, r => r.Headers.TryAddWithoutValidation("If-Match", etag), body);

    static Task<HttpResponseMessage> PutWith(HttpClient client, string externalKey, Action<HttpRequestMessage> headers, object body)
    {
        var request = new HttpRequestMessage(HttpMethod.Put, $"/api/v1/instances/{externalKey}") { Content = JsonContent.Create(body) };
        headers(request);
        return client.SendAsync(request);
    }
}
