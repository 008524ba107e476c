using System.Net;
using System.Net.Http.Json;
using BLite.Bson;
using BLite.Cli.Studio;

namespace BLite.Cli.Tests.Studio;

/// <summary>Each refusal of the studio's gate: no token, a wrong token, a foreign Host, a mutation without the header, CORS, read-only.</summary>
public class StudioSecurityTests
{
    [Theory]
    [InlineData("/")]
    [InlineData("/app.js")]
    [InlineData("/api/overview")]
    [InlineData("/api/collections/orders/documents")]
    [InlineData("/api/collections/orders/export?format=jsonl")]
    public async Task A_request_without_the_token_is_refused(string url)
    {
        await using var host = await StudioHost.StartAsync();

        var response = await host.Bare.GetAsync(url);

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.Contains("access token", await response.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task A_wrong_token_is_refused_in_the_address_and_in_the_cookie()
    {
        await using var host = await StudioHost.StartAsync();
        var wrong = new string('0', host.Server.Token.Length);

        var byQuery = await host.Bare.GetAsync("/?token=" + wrong);
        using var byCookie = new HttpRequestMessage(HttpMethod.Get, "/api/overview");
        byCookie.Headers.Add("Cookie", StudioSecurity.CookieName(host.Server.BaseAddress.Port) + "=" + wrong);
        var cookieResponse = await host.Bare.SendAsync(byCookie);

        Assert.Equal(HttpStatusCode.Unauthorized, byQuery.StatusCode);
        Assert.False(byQuery.Headers.Contains("Set-Cookie"));
        Assert.Equal(HttpStatusCode.Unauthorized, cookieResponse.StatusCode);
    }

    [Fact]
    public async Task The_first_load_with_the_token_sets_an_HttpOnly_SameSite_Strict_cookie_and_drops_the_token_from_the_address()
    {
        await using var host = await StudioHost.StartAsync();

        Assert.Contains("httponly", host.Cookie, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("samesite=strict", host.Cookie, StringComparison.OrdinalIgnoreCase);
        var page = await host.Client.GetAsync("/");
        Assert.Equal(HttpStatusCode.OK, page.StatusCode);
        Assert.Contains("<title>BLite Studio</title>", await page.Content.ReadAsStringAsync());
        var again = await host.Bare.GetAsync("/?token=" + host.Server.Token);
        Assert.Equal("/", again.Headers.Location?.OriginalString);
    }

    [Theory]
    [InlineData("attacker.example")]
    [InlineData("rebind.attacker.example")]
    [InlineData("127.0.0.1.nip.io")]
    [InlineData("192.168.1.5")]
    public async Task A_request_whose_Host_is_not_this_server_is_refused_even_with_the_cookie(string hostName)
    {
        await using var host = await StudioHost.StartAsync();
        using var request = new HttpRequestMessage(HttpMethod.Get, "/api/overview");
        request.Headers.Host = $"{hostName}:{host.Server.BaseAddress.Port}";

        var response = await host.Client.SendAsync(request);

        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
        Assert.Contains("Host header", await response.Content.ReadAsStringAsync());
    }

    [Fact]
    public async Task A_Host_with_another_port_is_refused_and_localhost_is_accepted()
    {
        await using var host = await StudioHost.StartAsync();
        var port = host.Server.BaseAddress.Port;
        using var otherPort = new HttpRequestMessage(HttpMethod.Get, "/api/overview");
        otherPort.Headers.Host = $"127.0.0.1:{(port == 65535 ? 1 : port + 1)}";
        using var localhost = new HttpRequestMessage(HttpMethod.Get, "/api/overview");
        localhost.Headers.Host = $"localhost:{port}";

        Assert.Equal(HttpStatusCode.Forbidden, (await host.Client.SendAsync(otherPort)).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await host.Client.SendAsync(localhost)).StatusCode);
    }

    [Fact]
    public async Task A_mutation_without_the_header_is_refused_and_changes_nothing()
    {
        await using var host = await StudioHost.StartAsync(orders: 5);
        using var request = new HttpRequestMessage(HttpMethod.Post, "/api/collections/orders/documents")
        {
            Content = JsonContent.Create(new { json = """{"_id": 100, "status": "forged"}""" }),
        };
        request.Headers.Add("Cookie", host.CookiePair);

        var response = await host.Bare.SendAsync(request);

        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
        Assert.Contains(StudioSecurity.MutationHeader, await response.Content.ReadAsStringAsync());
        Assert.Null(host.Server.Database.GetCollection("orders").FindById(100));
        Assert.Equal(5, host.Server.Database.GetCollection("orders").Count());
    }

    [Fact]
    public async Task A_mutation_from_another_origin_is_refused_even_with_cookie_and_header()
    {
        await using var host = await StudioHost.StartAsync(orders: 5);
        using var foreign = new HttpRequestMessage(HttpMethod.Delete, "/api/collections/orders/documents?id=" + Uri.EscapeDataString("""{"_id": 1}"""));
        foreign.Headers.Add("Origin", "http://attacker.example");
        using var own = new HttpRequestMessage(HttpMethod.Delete, "/api/collections/orders/documents?id=" + Uri.EscapeDataString("""{"_id": 2}"""));
        own.Headers.Add("Origin", host.Server.BaseAddress.GetLeftPart(UriPartial.Authority));

        var refused = await host.Client.SendAsync(foreign);
        var accepted = await host.Client.SendAsync(own);

        Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
        Assert.Contains("another origin", await refused.Content.ReadAsStringAsync());
        Assert.NotNull(host.Server.Database.GetCollection("orders").FindById(1));
        Assert.Equal(HttpStatusCode.OK, accepted.StatusCode);
        Assert.Null(host.Server.Database.GetCollection("orders").FindById(2));
    }

    [Fact]
    public async Task The_token_in_the_address_of_a_mutation_is_refused()
    {
        await using var host = await StudioHost.StartAsync(orders: 5);
        using var request = new HttpRequestMessage(HttpMethod.Delete, "/api/collections/orders/documents?token=" + host.Server.Token + "&id=" + Uri.EscapeDataString("""{"_id": 1}"""));
        request.Headers.Add(StudioSecurity.MutationHeader, "1");

        var response = await host.Bare.SendAsync(request);

        Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
        Assert.NotNull(host.Server.Database.GetCollection("orders").FindById(1));
    }

    [Fact]
    public async Task No_CORS_a_preflight_and_a_cross_origin_read_get_no_allow_origin()
    {
        await using var host = await StudioHost.StartAsync();
        using var preflight = new HttpRequestMessage(HttpMethod.Options, "/api/collections/orders/documents");
        preflight.Headers.Add("Origin", "https://attacker.example");
        preflight.Headers.Add("Access-Control-Request-Method", "DELETE");
        preflight.Headers.Add("Access-Control-Request-Headers", StudioSecurity.MutationHeader);
        using var read = new HttpRequestMessage(HttpMethod.Get, "/api/overview");
        read.Headers.Add("Origin", "https://attacker.example");

        var preflightResponse = await host.Bare.SendAsync(preflight);
        var readResponse = await host.Client.SendAsync(read);

        Assert.False(preflightResponse.IsSuccessStatusCode);
        Assert.Equal(HttpStatusCode.OK, readResponse.StatusCode);
        Assert.False(preflightResponse.Headers.Contains("Access-Control-Allow-Origin"));
        Assert.False(readResponse.Headers.Contains("Access-Control-Allow-Origin"));
        Assert.False(readResponse.Headers.Contains("Access-Control-Allow-Credentials"));
    }

    [Fact]
    public async Task The_studio_listens_on_the_loopback_address_only()
    {
        await using var host = await StudioHost.StartAsync();

        Assert.Equal("127.0.0.1", host.Server.BaseAddress.Host);
        Assert.True(host.Server.Options.IsLoopbackOnly);
    }

    [Fact]
    public async Task A_read_only_studio_refuses_every_write_and_changes_nothing()
    {
        await using var host = await StudioHost.StartAsync(orders: 5, readOnly: true);
        var before = host.Server.Database.GetCollection("orders").FindById(1)!;

        await host.SendJson(HttpMethod.Put, "/api/collections/orders/documents", new { json = """{"_id": 1, "status": "changed"}""" }, HttpStatusCode.Forbidden);
        await host.SendJson(HttpMethod.Post, "/api/collections/orders/documents", new { json = """{"_id": 99}""" }, HttpStatusCode.Forbidden);
        await host.SendJson(HttpMethod.Delete, "/api/collections/orders/documents?id=" + Uri.EscapeDataString("""{"_id": 1}"""), null, HttpStatusCode.Forbidden);
        await host.SendJson(HttpMethod.Post, "/api/collections/orders/indexes", new { name = "by_total", fields = "total", unique = false }, HttpStatusCode.Forbidden);
        var import = await host.Client.PostAsync("/api/collections/orders/import?format=jsonl", new StringContent("""{"_id": 50}"""));

        Assert.Equal(HttpStatusCode.Forbidden, import.StatusCode);
        Assert.Equal(before, host.Server.Database.GetCollection("orders").FindById(1));
        Assert.Equal(5, host.Server.Database.GetCollection("orders").Count());
        Assert.Equal(2, host.Server.Database.GetCollection("orders").GetIndexes().Count);
        var overview = await host.GetJson("/api/overview");
        Assert.True(overview.GetProperty("readOnly").GetBoolean());
    }
}
