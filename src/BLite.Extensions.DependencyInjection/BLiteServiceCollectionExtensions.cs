using System.Diagnostics.CodeAnalysis;
using System.Reflection;
using BLite;
using BLite.Extensions.DependencyInjection;
using Microsoft.Extensions.Configuration;

// In the container's namespace, as AddDbContext is, so that registration needs no extra using.
namespace Microsoft.Extensions.DependencyInjection;

/// <summary>Registers BLite contexts in an <see cref="IServiceCollection"/>.</summary>
public static class BLiteServiceCollectionExtensions
{
    /// <summary>
    /// Registers <typeparamref name="TContext"/> as a singleton, the way an embedded database is
    /// shared: one open file, one writer, any number of concurrent readers, across the whole
    /// application. The context is opened on first resolution and disposed (checkpointed and
    /// closed) when the service provider is, that is on host shutdown. It needs a public
    /// constructor taking <see cref="DocumentDbContextOptions"/> (other parameters come from the container).
    /// </summary>
    public static IServiceCollection AddBLite<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TContext>(
        this IServiceCollection services, Action<BLiteOptionsBuilder> configure)
        where TContext : DocumentDbContext
    {
        ArgumentNullException.ThrowIfNull(configure);
        return Register<TContext>(services, configuration: null, configure);
    }

    /// <summary>
    /// Registers <typeparamref name="TContext"/> as a singleton (see the other overload) with
    /// options bound from a configuration section: <c>Path</c>, <c>Durability</c>
    /// (<c>Full</c>, <c>Normal</c>, <c>InMemory</c>), <c>PageSize</c>, <c>CacheBudgetBytes</c>.
    /// <paramref name="configure"/>, when given, runs after the binding and wins.
    /// </summary>
    public static IServiceCollection AddBLite<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TContext>(
        this IServiceCollection services, IConfiguration configuration, Action<BLiteOptionsBuilder>? configure = null)
        where TContext : DocumentDbContext
    {
        ArgumentNullException.ThrowIfNull(configuration);
        return Register<TContext>(services, configuration, configure);
    }

    private static IServiceCollection Register<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TContext>(
        IServiceCollection services, IConfiguration? configuration, Action<BLiteOptionsBuilder>? configure)
        where TContext : DocumentDbContext
    {
        ArgumentNullException.ThrowIfNull(services);
        EnsureOptionsConstructor(typeof(TContext));
        services.AddSingleton(provider => Create<TContext>(provider, configuration, configure));
        return services;
    }

    private static TContext Create<[DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] TContext>(
        IServiceProvider provider, IConfiguration? configuration, Action<BLiteOptionsBuilder>? configure)
        where TContext : DocumentDbContext
    {
        var options = new DocumentDbContextOptions();
        configuration?.Bind(options);
        configure?.Invoke(new BLiteOptionsBuilder(options));
        options.LoggerFactory ??= provider.GetService<Microsoft.Extensions.Logging.ILoggerFactory>();
        return ActivatorUtilities.CreateInstance<TContext>(provider, options);
    }

    /// <summary>Refuses at registration, not at first use, a context the container could not create.</summary>
    private static void EnsureOptionsConstructor([DynamicallyAccessedMembers(DynamicallyAccessedMemberTypes.PublicConstructors)] Type contextType)
    {
        foreach (var constructor in contextType.GetConstructors(BindingFlags.Public | BindingFlags.Instance))
        {
            if (Array.Exists(constructor.GetParameters(), p => p.ParameterType == typeof(DocumentDbContextOptions)))
            {
                return;
            }
        }

        throw new InvalidOperationException(
            $"AddBLite<{contextType.Name}> needs a public constructor of {contextType.Name} taking DocumentDbContextOptions, " +
            $"for example: public {contextType.Name}(DocumentDbContextOptions options) : base(options) {{ }}");
    }
}
