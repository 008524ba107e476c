using System.Net;
using System.Security.Cryptography;
using BLite.Cli.Database;
using BLite.Core;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Hosting;
using Microsoft.AspNetCore.Hosting.Server;
using Microsoft.AspNetCore.Hosting.Server.Features;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace BLite.Cli.Studio;

/// <summary>
/// The studio's web server: Kestrel from the shared framework, one open database, the security
/// gate in front of every request, the JSON API and the embedded pages. The database is opened
/// once, through the same API and with the same locking as any other process.
/// </summary>
internal sealed class StudioServer : IAsyncDisposable
{
    private readonly WebApplication _app;

    private StudioServer(WebApplication app, DocumentDatabase database, StudioOptions options, string token, Uri baseAddress)
    {
        _app = app;
        Database = database;
        Options = options;
        Token = token;
        BaseAddress = baseAddress;
    }

    public DocumentDatabase Database { get; }

    public StudioOptions Options { get; }

    /// <summary>The secret every request must carry (as the cookie, after the first page load with ?token=).</summary>
    public string Token { get; }

    /// <summary>Scheme, host and the port actually bound, ending in '/'.</summary>
    public Uri BaseAddress { get; }

    /// <summary>The address to open in a browser: the first load trades the token for a cookie.</summary>
    public Uri LaunchUrl => new(BaseAddress, "?token=" + Token);

    /// <summary>Completes when the host stops (Ctrl-C, SIGTERM or <see cref="DisposeAsync"/>).</summary>
    public Task WaitForShutdownAsync() => _app.WaitForShutdownAsync();

    public static async Task<StudioServer> StartAsync(StudioOptions options)
    {
        var database = options.ReadOnly
            ? DatabaseFiles.OpenForReading(options.DatabasePath)
            : DatabaseFiles.OpenExisting(options.DatabasePath);
        WebApplication? app = null;
        try
        {
            var token = Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(32));
            var builder = WebApplication.CreateSlimBuilder(new WebApplicationOptions
            {
                ApplicationName = "blite-studio",
                ContentRootPath = AppContext.BaseDirectory,
                EnvironmentName = Environments.Production,
            });
            builder.Logging.ClearProviders();
            builder.Services.Configure<ConsoleLifetimeOptions>(lifetime => lifetime.SuppressStatusMessages = true);
            // Only the address given: never the ASPNETCORE_URLS or launch settings a machine may carry.
            builder.WebHost.UseUrls();
            builder.WebHost.ConfigureKestrel(kestrel =>
            {
                kestrel.AddServerHeader = false;
                kestrel.Listen(options.ListenAddress, options.Port);
            });
            app = builder.Build();
            var port = 0;
            var gate = new StudioSecurity(token, () => port, options);
            app.Use(gate.InvokeAsync);
            app.Use(StudioErrors.InvokeAsync);
            StudioApi.Map(app, database, options);
            StudioPages.Map(app);
            await app.StartAsync().ConfigureAwait(false);

            port = BoundPort(app);
            var host = options.ListenAddress.Equals(IPAddress.Any) || options.ListenAddress.Equals(IPAddress.IPv6Any)
                ? IPAddress.Loopback.ToString()
                : options.ListenAddress.AddressFamily == System.Net.Sockets.AddressFamily.InterNetworkV6
                    ? $"[{options.ListenAddress}]"
                    : options.ListenAddress.ToString();
            return new StudioServer(app, database, options, token, new Uri($"http://{host}:{port}/"));
        }
        catch
        {
            // A port already taken fails here: release the half-started server and the database.
            if (app is not null)
            {
                await app.DisposeAsync().ConfigureAwait(false);
            }

            database.Dispose();
            throw;
        }
    }

    private static int BoundPort(WebApplication app)
    {
        var addresses = app.Services.GetRequiredService<IServer>().Features.GetRequiredFeature<IServerAddressesFeature>().Addresses;
        foreach (var address in addresses)
        {
            return new Uri(address).Port;
        }

        throw new InvalidOperationException("the studio's web server started without an address.");
    }

    public async ValueTask DisposeAsync()
    {
        await _app.StopAsync().ConfigureAwait(false);
        await _app.DisposeAsync().ConfigureAwait(false);
        Database.Dispose();
    }
}
