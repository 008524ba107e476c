using BLite.Samples.WebApi;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace BLite.Extensions.DependencyInjection.Tests;

public sealed class AddBLiteTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public void The_context_is_one_shared_instance_with_the_configured_options()
    {
        var path = _directory.File("todos.blite");
        using (var provider = new ServiceCollection().AddBLite<TodoContext>(o => o.UsePath(path).UseDurability(Durability.Normal)).BuildServiceProvider())
        {
            var db = provider.GetRequiredService<TodoContext>();
            Assert.Same(db, provider.GetRequiredService<TodoContext>());
            Assert.Equal(Path.GetFullPath(path), db.Database.Path);
            db.Todos.Insert(new Todo { Title = "write the tests" });
        }

        // Disposing the provider closed the file: it reopens (no lock left) with the data.
        using var reopened = new TodoContext(new DocumentDbContextOptions { Path = path });
        Assert.Equal("write the tests", Assert.Single(reopened.Todos.FindAll()).Title);
    }

    [Fact]
    public void An_encrypted_context_is_registered_with_its_key()
    {
        var path = _directory.File("todos.blite");
        var key = Enumerable.Range(3, BLiteEncryption.KeySize).Select(i => (byte)i).ToArray();
        using (var provider = new ServiceCollection().AddBLite<TodoContext>(o => o.UsePath(path).UseEncryption(BLiteEncryption.WithKey(key))).BuildServiceProvider())
        {
            provider.GetRequiredService<TodoContext>().Todos.Insert(new Todo { Title = "keep it secret" });
        }

        Assert.Throws<BLiteEncryptionException>(() => new TodoContext(new DocumentDbContextOptions { Path = path }));
        using var reopened = new TodoContext(new DocumentDbContextOptions { Path = path, Encryption = BLiteEncryption.WithKey(key) });
        Assert.Equal("keep it secret", Assert.Single(reopened.Todos.FindAll()).Title);
    }

    [Fact]
    public void Options_bind_from_a_configuration_section_and_code_overrides_them()
    {
        var configured = _directory.File("configured.blite");
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["BLite:Path"] = configured,
            ["BLite:Durability"] = "Normal",
            ["BLite:CacheBudgetBytes"] = "1048576",
        }).Build();

        using (var provider = new ServiceCollection().AddBLite<TodoContext>(configuration.GetSection("BLite")).BuildServiceProvider())
        {
            var db = provider.GetRequiredService<TodoContext>();
            Assert.Equal(Path.GetFullPath(configured), db.Database.Path);
            Assert.Equal(1048576, db.Database.GetStatistics().CacheBudgetBytes);
        }

        var overridden = _directory.File("overridden.blite");
        using (var provider = new ServiceCollection().AddBLite<TodoContext>(configuration.GetSection("BLite"), o => o.UsePath(overridden)).BuildServiceProvider())
        {
            Assert.Equal(Path.GetFullPath(overridden), provider.GetRequiredService<TodoContext>().Database.Path);
        }
    }

    [Fact]
    public void A_bad_configuration_value_is_refused_with_its_key()
    {
        var configuration = new ConfigurationBuilder().AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["BLite:Path"] = _directory.File(),
            ["BLite:Durability"] = "Sometimes",
        }).Build();
        using var provider = new ServiceCollection().AddBLite<TodoContext>(configuration.GetSection("BLite")).BuildServiceProvider();

        var error = Assert.Throws<InvalidOperationException>(() => provider.GetRequiredService<TodoContext>());
        Assert.Contains("BLite:Durability", error.Message, StringComparison.Ordinal);
        Assert.False(File.Exists(_directory.File()));
    }

    [Fact]
    public void A_context_without_an_options_constructor_is_refused_at_registration()
    {
        var error = Assert.Throws<InvalidOperationException>(() => new ServiceCollection().AddBLite<PathOnlyContext>(o => o.UseInMemory()));
        Assert.Contains("public PathOnlyContext(DocumentDbContextOptions options)", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task The_health_check_reports_an_open_database_healthy_and_a_closed_one_unhealthy()
    {
        var services = new ServiceCollection().AddBLite<TodoContext>(o => o.UseInMemory());
        services.AddLogging();
        services.AddHealthChecks().AddBLite<TodoContext>();
        await using var provider = services.BuildServiceProvider();
        var health = provider.GetRequiredService<HealthCheckService>();

        var report = await health.CheckHealthAsync();
        var entry = report.Entries["blite"];
        Assert.Equal(HealthStatus.Healthy, entry.Status);
        Assert.Equal("(in memory)", entry.Data["path"]);

        await provider.GetRequiredService<TodoContext>().DisposeAsync();
        report = await health.CheckHealthAsync();
        Assert.Equal(HealthStatus.Unhealthy, report.Entries["blite"].Status);
        Assert.IsType<ObjectDisposedException>(report.Entries["blite"].Exception);
    }

    [Fact]
    public async Task The_health_check_reports_a_database_that_cannot_be_opened()
    {
        var path = _directory.File("locked.blite");
        using var holder = new TodoContext(new DocumentDbContextOptions { Path = path });
        var services = new ServiceCollection().AddBLite<TodoContext>(o => o.UsePath(path));
        services.AddLogging();
        services.AddHealthChecks().AddBLite<TodoContext>(failureStatus: HealthStatus.Degraded);
        await using var provider = services.BuildServiceProvider();

        var entry = (await provider.GetRequiredService<HealthCheckService>().CheckHealthAsync()).Entries["blite"];

        Assert.Equal(HealthStatus.Degraded, entry.Status);
        Assert.IsType<BLiteDatabaseLockedException>(entry.Exception);
    }
}

public partial class PathOnlyContext(string path) : DocumentDbContext(path)
{
}
