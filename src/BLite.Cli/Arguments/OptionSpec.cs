namespace BLite.Cli.Arguments;

/// <summary>A <c>--name</c> option; <see cref="ValueName"/> is null for a flag that takes no value.</summary>
internal sealed record OptionSpec(string Name, string? ValueName, string Description)
{
    public bool TakesValue => ValueName is not null;

    public string Synopsis => TakesValue ? $"--{Name} <{ValueName}>" : $"--{Name}";
}

/// <summary>A positional argument, in the order it appears on the command line.</summary>
internal sealed record ArgumentSpec(string Name, string Description, bool Optional = false)
{
    public string Synopsis => Optional ? $"[{Name}]" : $"<{Name}>";
}
