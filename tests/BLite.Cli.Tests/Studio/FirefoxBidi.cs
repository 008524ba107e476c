using System.Diagnostics;
using System.Net.WebSockets;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;

namespace BLite.Cli.Tests.Studio;

/// <summary>
/// Debian's headless Firefox ESR (.ci/install-browsers installs it), driven over WebDriver BiDi,
/// which Firefox speaks itself: Playwright's Firefox needs its own patched build, which is not
/// available here. Only the commands the studio's flow needs: a session, one browsing context,
/// navigate, evaluate a script and capture a screenshot.
/// </summary>
public sealed partial class FirefoxBidi : IAsyncLifetime
{
    public const string FirefoxPath = "/usr/bin/firefox-esr";
    private static readonly TimeSpan Limit = TimeSpan.FromSeconds(30);

    private readonly string _profile = Directory.CreateTempSubdirectory("blite-firefox-").FullName;
    private readonly ClientWebSocket _socket = new();
    private Process? _firefox;
    private int _nextId;
    private string _context = "";

    public async Task InitializeAsync()
    {
        Assert.True(File.Exists(FirefoxPath), $"{FirefoxPath} is missing; run .ci/install-browsers (Debian's firefox-esr package).");
        var start = new ProcessStartInfo(FirefoxPath)
        {
            RedirectStandardError = true,
            RedirectStandardOutput = true,
            UseShellExecute = false,
        };
        foreach (var argument in new[] { "--headless", "--remote-debugging-port=0", "--no-remote", "--profile", _profile, "about:blank" })
        {
            start.ArgumentList.Add(argument);
        }

        _firefox = Process.Start(start) ?? throw new InvalidOperationException("firefox-esr could not be started.");
        _ = _firefox.StandardOutput.ReadToEndAsync();
        using var timeout = new CancellationTokenSource(Limit);
        Uri? endpoint = null;
        var printed = new StringBuilder();
        while (endpoint is null)
        {
            var line = await _firefox.StandardError.ReadLineAsync(timeout.Token);
            Assert.True(line is not null, $"firefox-esr exited before it listened for WebDriver BiDi:\n{printed}");
            printed.AppendLine(line);
            var match = ListeningLine().Match(line);
            if (match.Success)
            {
                endpoint = new Uri(match.Groups[1].Value + "/session");
            }
        }

        // Firefox keeps writing diagnostics; they must be drained or it blocks on a full pipe.
        _ = _firefox.StandardError.ReadToEndAsync();
        await _socket.ConnectAsync(endpoint, timeout.Token);
        await SendAsync("session.new", new JsonObject { ["capabilities"] = new JsonObject() });
        var tree = await SendAsync("browsingContext.getTree", new JsonObject());
        _context = tree["contexts"]![0]!["context"]!.GetValue<string>();
    }

    /// <summary>Loads a URL and waits until the document has loaded.</summary>
    public Task NavigateAsync(Uri url) =>
        SendAsync("browsingContext.navigate", new JsonObject { ["context"] = _context, ["url"] = url.ToString(), ["wait"] = "complete" });

    /// <summary>Runs a script in the page, awaiting it if it returns a promise; returns its value.</summary>
    public async Task<JsonNode?> EvaluateAsync(string expression)
    {
        var result = await SendAsync("script.evaluate", new JsonObject
        {
            ["expression"] = expression,
            ["target"] = new JsonObject { ["context"] = _context },
            ["awaitPromise"] = true,
            ["serializationOptions"] = new JsonObject { ["maxObjectDepth"] = 4 },
        });
        Assert.True(result["type"]!.GetValue<string>() == "success", $"the script threw in Firefox: {result["exceptionDetails"]?["text"]}\n{expression}");
        return Deserialize(result["result"]);
    }

    public async Task ScreenshotAsync(string path)
    {
        var result = await SendAsync("browsingContext.captureScreenshot", new JsonObject { ["context"] = _context });
        await File.WriteAllBytesAsync(path, Convert.FromBase64String(result["data"]!.GetValue<string>()));
    }

    public async Task DisposeAsync()
    {
        if (_socket.State == WebSocketState.Open)
        {
            await SendAsync("browser.close", new JsonObject());
        }

        _socket.Dispose();
        if (_firefox is not null)
        {
            if (!_firefox.WaitForExit(Limit))
            {
                _firefox.Kill(entireProcessTree: true);
            }

            _firefox.Dispose();
        }

        Directory.Delete(_profile, recursive: true);
    }

    /// <summary>Sends one command and reads messages up to its answer; events in between are skipped.</summary>
    private async Task<JsonNode> SendAsync(string method, JsonObject parameters)
    {
        using var timeout = new CancellationTokenSource(Limit);
        var id = ++_nextId;
        var command = new JsonObject { ["id"] = id, ["method"] = method, ["params"] = parameters };
        await _socket.SendAsync(Encoding.UTF8.GetBytes(command.ToJsonString()), WebSocketMessageType.Text, true, timeout.Token);
        while (true)
        {
            var message = JsonNode.Parse(await ReceiveAsync(timeout.Token))!;
            if (message["id"]?.GetValue<int>() != id)
            {
                continue;
            }

            Assert.True(message["type"]!.GetValue<string>() == "success", $"{method} failed in Firefox: {message.ToJsonString()}");
            return message["result"]!;
        }
    }

    private async Task<string> ReceiveAsync(CancellationToken cancellation)
    {
        using var buffer = new MemoryStream();
        var chunk = new byte[64 * 1024];
        while (true)
        {
            var received = await _socket.ReceiveAsync(chunk, cancellation);
            Assert.True(received.MessageType != WebSocketMessageType.Close, "Firefox closed the WebDriver BiDi connection.");
            buffer.Write(chunk, 0, received.Count);
            if (received.EndOfMessage)
            {
                return Encoding.UTF8.GetString(buffer.ToArray());
            }
        }
    }

    /// <summary>A BiDi remote value as plain JSON: primitives, arrays and objects; anything else as null.</summary>
    private static JsonNode? Deserialize(JsonNode? remote) => remote?["type"]?.GetValue<string>() switch
    {
        "string" => JsonValue.Create(remote["value"]!.GetValue<string>()),
        "number" => remote["value"]!.GetValueKind() == JsonValueKind.Number ? JsonValue.Create(remote["value"]!.GetValue<double>()) : null,
        "boolean" => JsonValue.Create(remote["value"]!.GetValue<bool>()),
        "array" => new JsonArray([.. remote["value"]!.AsArray().Select(Deserialize)]),
        "object" => new JsonObject(remote["value"]!.AsArray().Select(pair =>
            KeyValuePair.Create(pair![0]!.GetValue<string>(), Deserialize(pair[1])))),
        _ => null,
    };

    [GeneratedRegex(@"WebDriver BiDi listening on (ws://\S+)")]
    private static partial Regex ListeningLine();
}
