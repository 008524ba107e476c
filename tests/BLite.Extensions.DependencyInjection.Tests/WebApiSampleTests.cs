using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using BLite.Samples.WebApi;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.DependencyInjection;

namespace BLite.Extensions.DependencyInjection.Tests;

/// <summary>The sample minimal API, started on a real loopback port and called over HTTP.</summary>
public sealed class WebApiSampleTests : IAsyncLifetime
{
    private readonly TempDirectory _directory = new();
    private WebApplication _app = null!;
    private HttpClient _http = null!;

    private string DatabasePath => _directory.File("todos.blite");

    public async Task InitializeAsync()
    {
        _app = await StartAsync(DatabasePath);
        _http = new HttpClient { BaseAddress = ServerAddress(_app) };
    }

    public async Task DisposeAsync()
    {
        _http.Dispose();
        await _app.DisposeAsync();
        _directory.Dispose();
    }

    [Fact]
    public async Task The_sample_listens_on_loopback_only()
    {
        var address = ServerAddress(_app);
        Assert.Equal("127.0.0.1", address.Host);
        Assert.NotEqual(0, address.Port);
        using var response = await _http.GetAsync("/todos");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    [Fact]
    public async Task Todos_are_created_read_updated_and_deleted_over_HTTP_and_survive_a_restart()
    {
        using var created = await _http.PostAsJsonAsync("/todos", new NewTodo("buy tea"));
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        var tea = (await created.Content.ReadFromJsonAsync<Todo>())!;
        Assert.Equal($"/todos/{tea.Id}", created.Headers.Location!.OriginalString);
        var mugs = (await (await _http.PostAsJsonAsync("/todos", new NewTodo("wash mugs"))).Content.ReadFromJsonAsync<Todo>())!;
        Assert.NotEqual(tea.Id, mugs.Id);

        using var done = await _http.PutAsync($"/todos/{tea.Id}/done", content: null);
        Assert.True((await done.Content.ReadFromJsonAsync<Todo>())!.Done);
        Assert.Equal(["buy tea"], (await _http.GetFromJsonAsync<List<Todo>>("/todos?done=true"))!.Select(t => t.Title));
        Assert.Equal(HttpStatusCode.NoContent, (await _http.DeleteAsync($"/todos/{mugs.Id}")).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await _http.GetAsync($"/todos/{mugs.Id}")).StatusCode);
        Assert.Equal(HttpStatusCode.BadRequest, (await _http.PostAsJsonAsync("/todos", new NewTodo(" "))).StatusCode);

        // Host shutdown disposes the context (checkpoint, close); a new host reopens the same file.
        await _app.DisposeAsync();
        _app = await StartAsync(DatabasePath);
        using var again = new HttpClient { BaseAddress = ServerAddress(_app) };
        var all = (await again.GetFromJsonAsync<List<Todo>>("/todos"))!;
        var only = Assert.Single(all);
        Assert.Equal(tea.Id, only.Id);
        Assert.True(only.Done);
    }

    [Fact]
    public async Task The_health_endpoint_reports_the_database()
    {
        using var response = await _http.GetAsync("/health");
        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        using var json = JsonDocument.Parse(await response.Content.ReadAsStringAsync());
        Assert.Equal("Healthy", json.RootElement.GetProperty("status").GetString());
        var blite = json.RootElement.GetProperty("checks").GetProperty("blite");
        Assert.Equal(Path.GetFullPath(DatabasePath), blite.GetProperty("data").GetProperty("path").GetString());

        _app.Services.GetRequiredService<TodoContext>().Dispose();
        using var closed = await _http.GetAsync("/health");
        Assert.Equal(HttpStatusCode.ServiceUnavailable, closed.StatusCode);
    }

    private static async Task<WebApplication> StartAsync(string databasePath)
    {
        // Port 0: the OS picks a free loopback port, so parallel runs never collide.
        var app = TodoApi.Build(["--urls=http://127.0.0.1:0", $"--BLite:Path={databasePath}", "--Logging:LogLevel:Default=Warning"]);
        await app.StartAsync();
        return app;
    }

    private static Uri ServerAddress(WebApplication app) =>
        new(app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses.Single());
}
