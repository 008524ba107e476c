using System.Net;
using System.Net.Http.Json;
using BLite.Bson;
using BLite.Cli.Studio;
using BLite.Core;

namespace BLite.Cli.Tests.Studio;

/// <summary><c>blite studio</c> as a separate process: the printed URL, the clean stop, read-only beside a writer, --listen.</summary>
public class StudioCommandTests
{
    private static async Task<HttpClient> LogIn(StudioProcess studio)
    {
        var client = new HttpClient(new HttpClientHandler { AllowAutoRedirect = false, UseCookies = false }) { BaseAddress = studio.BaseAddress };
        var login = await client.GetAsync(studio.LaunchUrl);
        Assert.Equal(HttpStatusCode.Redirect, login.StatusCode);
        client.DefaultRequestHeaders.Add("Cookie", login.Headers.GetValues("Set-Cookie").Single().Split(';')[0]);
        client.DefaultRequestHeaders.Add(StudioSecurity.MutationHeader, "1");
        return client;
    }

    [Fact]
    public async Task The_studio_prints_a_loopback_URL_with_a_token_serves_and_stops_cleanly_closing_the_database()
    {
        using var directory = new TempDirectory();
        var path = directory.File();
        TestDatabases.CreateShop(path, orders: 10);

        using var studio = await StudioProcess.StartAsync(path);
        using var client = await LogIn(studio);
        var overview = await client.GetFromJsonAsync<System.Text.Json.JsonElement>("/api/overview");
        var edit = await client.PutAsync("/api/collections/orders/documents", JsonContent.Create(new { json = """{"_id": 2, "status": "from the studio"}""" }));
        var (exitCode, output, error) = studio.Stop();

        Assert.Equal("127.0.0.1", studio.LaunchUrl.Host);
        Assert.Matches("^[0-9a-f]{64}$", studio.Token);
        Assert.False(overview.GetProperty("readOnly").GetBoolean());
        Assert.Equal(HttpStatusCode.OK, edit.StatusCode);
        Assert.True(exitCode == 0, $"exit {exitCode}\n{output}\n{error}");
        Assert.Contains("studio stopped", output);
        Assert.Equal("", error);
        // The lock is released and the edit is durable: the database opens for writing and holds it.
        using var database = DocumentDatabase.Open(path);
        Assert.Equal("from the studio", database.GetCollection("orders").FindById(2)!["status"].AsString);
        Assert.True(database.Verify().IsValid);
    }

    [Fact]
    public async Task The_studio_opens_an_encrypted_database_with_its_key_file_and_its_edits_stay_encrypted()
    {
        using var directory = new TempDirectory();
        var path = directory.File();
        var keyFile = directory.File("shop.key");
        var key = Enumerable.Range(90, BLiteEncryption.KeySize).Select(i => (byte)i).ToArray();
        File.WriteAllText(keyFile, Convert.ToBase64String(key));
        TestDatabases.CreateShop(path, orders: 10, BLiteEncryption.WithKey(key));

        using var studio = await StudioProcess.StartAsync(path, "--key-file", keyFile);
        using var client = await LogIn(studio);
        var documents = await client.GetStringAsync("/api/collections/orders/documents");
        var edit = await client.PutAsync("/api/collections/orders/documents", JsonContent.Create(new { json = """{"_id": 2, "status": "studio-secret-7f3a"}""" }));
        var (exitCode, output, error) = studio.Stop();

        Assert.Contains("c7@example.com", documents, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, edit.StatusCode);
        Assert.True(exitCode == 0, $"exit {exitCode}\n{output}\n{error}");
        foreach (var file in new[] { path, path + "-wal" }.Where(File.Exists))
        {
            Assert.True(File.ReadAllBytes(file).AsSpan().IndexOf("studio-secret-7f3a"u8) < 0, file);
        }

        using var database = DocumentDatabase.Open(path, new BLite.Core.Storage.StorageOptions { Encryption = BLiteEncryption.WithKey(key) });
        Assert.Equal("studio-secret-7f3a", database.GetCollection("orders").FindById(2)!["status"].AsString);
    }

    [Fact]
    public async Task A_read_only_studio_runs_beside_an_application_that_holds_the_database()
    {
        using var directory = new TempDirectory();
        var path = directory.File();
        TestDatabases.CreateShop(path, orders: 8);
        using var application = DocumentDatabase.Open(path);
        application.GetCollection("orders").Insert(TestDatabases.Order(9));

        var refused = BliteProcess.Run("studio", path);
        using var studio = await StudioProcess.StartAsync(path, "--read-only");
        using var client = await LogIn(studio);
        var page = await client.GetFromJsonAsync<System.Text.Json.JsonElement>("/api/collections/orders/documents");
        var write = await client.DeleteAsync("/api/collections/orders/documents?id=" + Uri.EscapeDataString("""{"_id": 1}"""));
        // The application commits and checkpoints under the studio: the next page shows it.
        application.GetCollection("orders").Insert(TestDatabases.Order(10));
        application.Checkpoint();
        var later = await client.GetFromJsonAsync<System.Text.Json.JsonElement>("/api/collections/orders/documents");
        var (exitCode, _, _) = studio.Stop();

        Assert.NotEqual(0, refused.ExitCode);
        Assert.StartsWith("blite: ", refused.Stderr);
        Assert.Equal(Enumerable.Range(1, 9), page.GetProperty("documents").EnumerateArray().Select(d => BsonDocument.Parse(d.GetProperty("json").GetString()!)["_id"].AsInt32));
        Assert.Equal(HttpStatusCode.Forbidden, write.StatusCode);
        Assert.Equal(Enumerable.Range(1, 10), later.GetProperty("documents").EnumerateArray().Select(d => BsonDocument.Parse(d.GetProperty("json").GetString()!)["_id"].AsInt32));
        Assert.Equal(0, exitCode);
        Assert.Equal(10, application.GetCollection("orders").Count());
        application.GetCollection("orders").Insert(TestDatabases.Order(11));
    }

    [Fact]
    public async Task Listening_on_another_interface_needs_listen_and_prints_a_warning()
    {
        using var directory = new TempDirectory();
        var path = directory.File();
        TestDatabases.CreateShop(path, orders: 2);

        using var studio = await StudioProcess.StartAsync(path, "--listen", "0.0.0.0");
        using var client = await LogIn(studio);
        using var rebound = new HttpRequestMessage(HttpMethod.Get, "/api/overview");
        rebound.Headers.Host = "attacker.example:" + studio.BaseAddress.Port;
        var refused = await client.SendAsync(rebound);
        var (exitCode, _, error) = studio.Stop();

        Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
        Assert.Equal(0, exitCode);
        Assert.Contains("warning", error);
        Assert.Contains("0.0.0.0", error);
    }

    [Theory]
    [InlineData("--listen", "not-an-address", "--listen needs an IP address")]
    [InlineData("--port", "70000", "--port must be at most 65535")]
    public void Bad_options_are_usage_errors(string option, string value, string message)
    {
        using var directory = new TempDirectory();
        var path = directory.File();
        TestDatabases.CreateShop(path, orders: 1);

        var result = BliteProcess.Run("studio", path, option, value);

        Assert.Equal(ExitCodes.Usage, result.ExitCode);
        Assert.Contains(message, result.Stderr);
    }

    [Fact]
    public async Task A_port_already_taken_is_a_clear_error()
    {
        await using var first = await StudioHost.StartAsync(orders: 1);
        using var directory = new TempDirectory();
        var path = directory.File();
        TestDatabases.CreateShop(path, orders: 1);

        var result = BliteProcess.Run("studio", path, "--port", first.Server.BaseAddress.Port.ToString(System.Globalization.CultureInfo.InvariantCulture));

        Assert.Equal(ExitCodes.Error, result.ExitCode);
        Assert.Contains("address already in use", result.Stderr);
        using var database = DocumentDatabase.Open(path);
        Assert.Equal(1, database.GetCollection("orders").Count());
    }

    [Fact]
    public void A_missing_database_is_not_created()
    {
        using var directory = new TempDirectory();
        var path = directory.File("missing.blite");

        var result = BliteProcess.Run("studio", path);

        Assert.Equal(ExitCodes.Error, result.ExitCode);
        Assert.Contains("does not exist", result.Stderr);
        Assert.False(File.Exists(path));
    }

    [Fact]
    [System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
    public async Task Open_starts_the_browser_named_in_BROWSER_on_the_URL_with_the_token()
    {
        using var directory = new TempDirectory();
        var path = directory.File();
        TestDatabases.CreateShop(path, orders: 1);
        // A stand-in browser: prints the address it was given to the studio's output, which it inherits.
        var browser = directory.File("browser.sh");
        File.WriteAllText(browser, "#!/bin/sh\nprintf 'browser opened %s\\n' \"$*\"\n");
        File.SetUnixFileMode(browser, UnixFileMode.UserRead | UnixFileMode.UserWrite | UnixFileMode.UserExecute);

        using var studio = await StudioProcess.StartAsync(new Dictionary<string, string> { ["BROWSER"] = browser }, path, "--open");
        var opened = await studio.ReadUntilAsync(line => line.StartsWith("browser opened ", StringComparison.Ordinal));
        var (exitCode, _, error) = studio.Stop();

        var url = new Uri(opened["browser opened ".Length..]);
        Assert.Equal(studio.LaunchUrl, url);
        Assert.Equal("127.0.0.1", url.Host);
        Assert.Equal(studio.BaseAddress.Port, url.Port);
        Assert.Equal("?token=" + studio.Token, url.Query);
        Assert.Matches("^[0-9a-f]{64}$", studio.Token);
        Assert.Equal(0, exitCode);
        Assert.Equal("", error);
    }

    [Fact]
    public async Task Open_with_a_browser_that_cannot_start_says_so_and_keeps_serving()
    {
        using var directory = new TempDirectory();
        var path = directory.File();
        TestDatabases.CreateShop(path, orders: 1);

        using var studio = await StudioProcess.StartAsync(new Dictionary<string, string> { ["BROWSER"] = directory.File("no-such-browser") }, path, "--open");
        using var client = await LogIn(studio);
        var overview = await client.GetAsync("/api/overview");
        var (exitCode, _, error) = studio.Stop();

        Assert.Equal(HttpStatusCode.OK, overview.StatusCode);
        Assert.Equal(0, exitCode);
        Assert.Contains("could not start a browser", error);
        Assert.Contains("no-such-browser", error);
    }
}
