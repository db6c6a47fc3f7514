using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;

namespace IfiDashboard.Server.Tests.Api.Compliance;

public sealed class ExportTests(ComplianceFleetFixture fixture) : IClassFixture<ComplianceFleetFixture>
{
    HttpClient Reader => fixture.Fleet.Reader;

    [Fact]
    public async Task Export_is_json_by_default_with_every_matching_row()
    {
        var response = await Reader.GetAsync("/api/v1/compliance/export?environment=Production");
        var rows = JsonDocument.Parse(await response.Content.ReadAsStringAsync()).RootElement;

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("application/json", response.Content.Headers.ContentType?.MediaType);
        Assert.Equal(["ok-required", "off-required", "legacy"], Json.Strings(rows, "name"));
        Assert.Contains("Accept", response.Headers.Vary);
    }

    [Fact]
    public async Task Csv_export_says_what_the_json_export_says()
    {
        // Both must come from one assessment: a background one in between changes assessedAt, so try again.
        for (var attempt = 0; ; attempt++)
        {
            var json = JsonDocument.Parse(await (await Send("application/json")).Content.ReadAsStringAsync()).RootElement;
            var csvResponse = await Send("text/csv");
            var csv = CsvReader.Parse(await csvResponse.Content.ReadAsStringAsync());
            if (attempt < 2 && json[0].GetProperty("assessedAt").GetDateTimeOffset() != DateTimeOffset.Parse(csv[1][^1], CultureInfo.InvariantCulture))
                continue;

            Assert.Equal("text/csv", csvResponse.Content.Headers.ContentType?.MediaType);
            Assert.Equal("attachment", csvResponse.Content.Headers.ContentDisposition?.DispositionType);
            var header = csv[0];
            Assert.Equal(json[0].EnumerateObject().Select(p => p.Name), header);
            Assert.Equal(json.GetArrayLength() + 1, csv.Count);
            for (var row = 0; row < json.GetArrayLength(); row++)
                for (var column = 0; column < header.Count; column++)
                    AssertSame(json[row].GetProperty(header[column]), csv[row + 1][column], $"row {row}, {header[column]}");
            return;
        }
    }

    [Fact]
    public async Task A_cell_starting_with_a_formula_character_is_prefixed_and_quoted()
    {
        var text = await (await Send("text/csv")).Content.ReadAsStringAsync();
        var csv = CsvReader.Parse(text);
        var owner = csv.Single(r => r[csv[0].IndexOf("name")] == "off-required")[csv[0].IndexOf("owner")];

        Assert.Equal("'" + ComplianceFleet.FormulaOwner, owner);
        Assert.Contains("\"'=HYPERLINK(\"\"http://evil.example\"\",\"\"x\"\")\"", text, StringComparison.Ordinal);
        Assert.EndsWith("\r\n", text, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("text/csv;q=0.5, application/json", "application/json")]
    [InlineData("application/json;q=0.1, text/*", "text/csv")]
    [InlineData("*/*", "application/json")]
    [InlineData("text/html, text/csv;q=0.2", "text/csv")]
    public async Task Accept_chooses_the_acceptable_format_with_the_highest_quality(string accept, string expected)
    {
        var response = await Send(accept);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal(expected, response.Content.Headers.ContentType?.MediaType);
    }

    [Theory]
    [InlineData("application/xml")]
    [InlineData("text/csv;q=0, application/json;q=0")]
    [InlineData("image/png, text/html")]
    public async Task An_unsupported_accept_is_406_problem(string accept)
    {
        var response = await Send(accept);

        Assert.Equal(HttpStatusCode.NotAcceptable, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType?.MediaType);
        Assert.Contains("text/csv", await response.Content.ReadAsStringAsync(), StringComparison.Ordinal);
    }

    Task<HttpResponseMessage> Send(string accept)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, "/api/v1/compliance/export");
        request.Headers.TryAddWithoutValidation("Accept", accept);
        return Reader.SendAsync(request);
    }

    /// <summary>The CSV cell holds the JSON value: text as is (formula text with its apostrophe), tags joined by ';'.</summary>
    static void AssertSame(JsonElement json, string cell, string where)
    {
        switch (json.ValueKind)
        {
            case JsonValueKind.Null:
                Assert.True(cell == "", where);
                break;
            case JsonValueKind.Array:
                Assert.True(string.Join(';', json.EnumerateArray().Select(e => e.GetString())) == cell, where);
                break;
            case JsonValueKind.Number:
                Assert.True(json.GetDouble() == double.Parse(cell, CultureInfo.InvariantCulture), where);
                break;
            case JsonValueKind.True or JsonValueKind.False:
                Assert.True(json.GetBoolean().ToString().ToLowerInvariant() == cell, where);
                break;
            default:
                var text = json.GetString()!;
                if (json.TryGetDateTimeOffset(out var time) && text.Contains('T'))
                    Assert.True(time == DateTimeOffset.Parse(cell, CultureInfo.InvariantCulture), where);
                else
                    Assert.True((text.Length > 0 && "=+-@".Contains(text[0]) ? "'" + text : text) == cell, $"{where}: {text} vs {cell}");
                break;
        }
    }
}

/// <summary>An RFC 4180 reader for the tests: quoted cells, doubled quotes, CRLF rows.</summary>
internal static class CsvReader
{
    public static List<List<string>> Parse(string text)
    {
        var rows = new List<List<string>>();
        var row = new List<string>();
        var cell = new StringBuilder();
        var quoted = false;
        for (var i = 0; i < text.Length; i++)
        {
            var c = text[i];
            if (quoted)
            {
                if (c == '"' && i + 1 < text.Length && text[i + 1] == '"') { cell.Append('"'); i++; }
                else if (c == '"') quoted = false;
                else cell.Append(c);
            }
            else if (c == '"') quoted = true;
            else if (c == ',') { row.Add(cell.ToString()); cell.Clear(); }
            else if (c == '\r' && i + 1 < text.Length && text[i + 1] == '\n')
            {
                row.Add(cell.ToString());
                cell.Clear();
                rows.Add(row);
                row = [];
                i++;
            }
            else cell.Append(c);
        }
        Assert.True(row.Count == 0 && cell.Length == 0, "the CSV does not end with CRLF");
        return rows;
    }
}
