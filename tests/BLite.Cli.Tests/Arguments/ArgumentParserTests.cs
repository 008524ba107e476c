using BLite.Cli.Arguments;

namespace BLite.Cli.Tests.Arguments;

public class ArgumentParserTests
{
    private static readonly ArgumentSpec[] _arguments = [new("database", "db"), new("collection", "c"), new("filter", "f", Optional: true)];

    private static readonly OptionSpec[] _options = [new("limit", "n", "l"), new("sort", "fields", "s"), new("canonical", null, "c")];

    [Fact]
    public void Options_take_values_in_either_spelling_and_flags_take_none()
    {
        var parsed = ArgumentParser.Parse("find", ["db", "--limit", "5", "orders", "--sort=-total", "--canonical"], _arguments, _options);

        Assert.Equal("db", parsed.Positional(0));
        Assert.Equal("orders", parsed.Positional(1));
        Assert.Null(parsed.Positional(2));
        Assert.Equal(5, parsed.NonNegativeInteger("limit", 0));
        Assert.Equal("-total", parsed.Value("sort"));
        Assert.True(parsed.Flag("canonical"));
    }

    [Fact]
    public void A_value_option_consumes_the_next_argument_even_when_it_starts_with_a_dash()
    {
        var parsed = ArgumentParser.Parse("find", ["db", "orders", "--sort", "-total"], _arguments, _options);

        Assert.Equal("-total", parsed.Value("sort"));
    }

    [Fact]
    public void Double_dash_ends_options_and_a_lone_dash_is_positional()
    {
        var parsed = ArgumentParser.Parse("find", ["-", "--", "--weird", "-x"], _arguments, _options);

        Assert.Equal("-", parsed.Positional(0));
        Assert.Equal("--weird", parsed.Positional(1));
        Assert.Equal("-x", parsed.Positional(2));
    }

    [Fact]
    public void Help_skips_the_positional_checks()
    {
        Assert.True(ArgumentParser.Parse("find", ["-h"], _arguments, _options).HelpRequested);
        Assert.True(ArgumentParser.Parse("find", ["--help"], _arguments, _options).HelpRequested);
    }

    [Theory]
    [InlineData(new[] { "db" }, "'find' needs <collection>")]
    [InlineData(new[] { "db", "c", "f", "extra" }, "unexpected 'extra'")]
    [InlineData(new[] { "db", "c", "--nope" }, "unknown option '--nope' for 'find'")]
    [InlineData(new[] { "db", "c", "-n" }, "unknown option '-n'")]
    [InlineData(new[] { "db", "c", "--limit" }, "option '--limit' needs a value")]
    [InlineData(new[] { "db", "c", "--canonical=yes" }, "option '--canonical' takes no value")]
    [InlineData(new[] { "db", "c", "--limit", "1", "--limit", "2" }, "option '--limit' is given twice")]
    public void Mistakes_are_usage_errors_naming_the_problem(string[] args, string message)
    {
        var exception = Assert.Throws<UsageException>(() => ArgumentParser.Parse("find", args, _arguments, _options));

        Assert.Contains(message, exception.Message);
        Assert.Equal("find", exception.Command);
    }

    [Fact]
    public void A_negative_or_non_numeric_integer_option_is_a_usage_error()
    {
        Assert.Throws<UsageException>(() => ArgumentParser.Parse("find", ["db", "c", "--limit", "-1"], _arguments, _options).NonNegativeInteger("limit", 0));
        Assert.Throws<UsageException>(() => ArgumentParser.Parse("find", ["db", "c", "--limit", "1e3"], _arguments, _options).NonNegativeInteger("limit", 0));
    }
}
