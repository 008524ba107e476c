using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BLite.Cli.Studio;

namespace BLite.Cli.Tests.Studio;

/// <summary>
/// A studio served in the test process over a seeded database, with a client that has traded the
/// token for the cookie exactly as a browser does (the redirect's Set-Cookie), and a bare client
/// that has nothing.
/// </summary>
internal sealed class StudioHost : IAsyncDisposable
{
    private readonly TempDirectory _directory;

    private StudioHost(TempDirectory directory, StudioServer server, HttpClient client, HttpClient bare, string cookie)
    {
        _directory = directory;
        Server = server;
        Client = client;
        Bare = bare;
        Cookie = cookie;
    }

    public StudioServer Server { get; }

    /// <summary>Carries the cookie and the mutation header, as the studio's pages do.</summary>
    public HttpClient Client { get; }

    /// <summary>No cookie, no header: what another site or process has.</summary>
    public HttpClient Bare { get; }

    /// <summary>The Set-Cookie value the first page load returned (name=value; attributes).</summary>
    public string Cookie { get; }

    public string CookiePair => Cookie.Split(';')[0];

    public static async Task<StudioHost> StartAsync(int orders = 40, bool readOnly = false, Action<string>? seed = null)
    {
        var directory = new TempDirectory();
        var path = directory.File("shop.blite");
        if (seed is null)
        {
            TestDatabases.CreateShop(path, orders);
        }
        else
        {
            seed(path);
        }

        var server = await StudioServer.StartAsync(new StudioOptions(path, 0, readOnly, IPAddress.Loopback));
        var bare = new HttpClient(new HttpClientHandler { AllowAutoRedirect = false, UseCookies = false }) { BaseAddress = server.BaseAddress };
        var login = await bare.GetAsync("/?token=" + server.Token);
        Assert.Equal(HttpStatusCode.Redirect, login.StatusCode);
        var cookie = Assert.Single(login.Headers.GetValues("Set-Cookie"));
        var client = new HttpClient(new HttpClientHandler { AllowAutoRedirect = false, UseCookies = false }) { BaseAddress = server.BaseAddress };
        client.DefaultRequestHeaders.Add("Cookie", cookie.Split(';')[0]);
        client.DefaultRequestHeaders.Add(StudioSecurity.MutationHeader, "1");
        return new StudioHost(directory, server, client, bare, cookie);
    }

    public async Task<JsonElement> GetJson(string url, HttpStatusCode expected = HttpStatusCode.OK)
    {
        var response = await Client.GetAsync(url);
        return await Read(response, expected);
    }

    public async Task<JsonElement> SendJson(HttpMethod method, string url, object? body, HttpStatusCode expected)
    {
        using var request = new HttpRequestMessage(method, url) { Content = body is null ? null : JsonContent.Create(body) };
        var response = await Client.SendAsync(request);
        return await Read(response, expected);
    }

    public static async Task<JsonElement> Read(HttpResponseMessage response, HttpStatusCode expected)
    {
        var text = await response.Content.ReadAsStringAsync();
        Assert.True(expected == response.StatusCode, $"expected {expected}, got {response.StatusCode}: {text}");
        return JsonDocument.Parse(text).RootElement.Clone();
    }

    public async ValueTask DisposeAsync()
    {
        Client.Dispose();
        Bare.Dispose();
        await Server.DisposeAsync();
        _directory.Dispose();
    }
}
