namespace BLite.Bson.Tests.Documents;

/// <summary>Cases written from the BSON Decimal128 specification: its string grammar, to-scientific-string, clamping and non-canonical encodings.</summary>
public class BsonDecimal128Tests
{
    [Theory]
    [InlineData("0", "0")]
    [InlineData("-0", "-0")]
    [InlineData("0.00", "0.00")]
    [InlineData("0E+9", "0E+9")]
    [InlineData("-0E-6176", "-0E-6176")]
    [InlineData("1000", "1000")]
    [InlineData("1E+3", "1E+3")]
    [InlineData("1e3", "1E+3")]
    [InlineData("1.50", "1.50")]
    [InlineData("-123.456", "-123.456")]
    [InlineData("+1", "1")]
    [InlineData(".5", "0.5")]
    [InlineData("5.", "5")]
    [InlineData("-0.000001", "-0.000001")]
    [InlineData("0.0000001", "1E-7")]
    [InlineData("1.0E-9", "1.0E-9")]
    [InlineData("0.0000000010", "1.0E-9")]
    [InlineData("1E-6176", "1E-6176")]
    [InlineData("9999999999999999999999999999999999E+6111", "9.999999999999999999999999999999999E+6144")]
    // Clamping: an exponent above the maximum pads the coefficient with zeros when that is exact.
    [InlineData("1E+6112", "1.0E+6112")]
    [InlineData("1E+6144", "1.000000000000000000000000000000000E+6144")]
    // More than 34 digits are accepted when only trailing zeros are dropped.
    [InlineData("10000000000000000000000000000000000", "1.000000000000000000000000000000000E+34")]
    // Zeros clamp into range without changing the value.
    [InlineData("0E+7000", "0E+6111")]
    [InlineData("-0E-9999", "-0E-6176")]
    [InlineData("Infinity", "Infinity")]
    [InlineData("inf", "Infinity")]
    [InlineData("+INFINITY", "Infinity")]
    [InlineData("-Inf", "-Infinity")]
    [InlineData("NaN", "NaN")]
    [InlineData("nan", "NaN")]
    [InlineData("-NaN", "NaN")]
    public void Parses_and_prints_the_specification_string_form(string text, string expected)
    {
        var value = BsonDecimal128.Parse(text);

        Assert.Equal(expected, value.ToString());
        Assert.True(BsonDecimal128.Parse(expected).BitsEqual(value) || value.IsNaN, $"{expected} should parse to the same bits");
    }

    [Theory]
    [InlineData("", "empty")]
    [InlineData(" 1", "no digits")]
    [InlineData("1 ", "unexpected character")]
    [InlineData("E3", "Infinity, Inf and NaN")]
    [InlineData(".", "no digits")]
    [InlineData("1e", "exponent has no digits")]
    [InlineData("1.2.3", "second decimal point")]
    [InlineData("infinit", "Infinity, Inf and NaN")]
    [InlineData("NaN1", "Infinity, Inf and NaN")]
    [InlineData("snan", "Infinity, Inf and NaN")]
    [InlineData("1E+6145", "overflow")]
    [InlineData("1E-6177", "underflow")]
    [InlineData("12345678901234567890123456789012345", "34 significant digits")]
    [InlineData("0x10", "unexpected character")]
    public void Refuses_text_outside_the_grammar_or_that_would_round(string text, string problem)
    {
        var error = Assert.Throws<FormatException>(() => BsonDecimal128.Parse(text));
        Assert.Contains(problem, error.Message);
    }

    [Fact]
    public void Non_canonical_encodings_read_as_zero()
    {
        // A coefficient of exactly 10^34 with exponent 0, and the 11-prefixed combination form.
        var tooLarge = BsonDecimal128.FromIeeeBits(0x3041ED09BEAD87C0UL, 0x378D8E6400000000UL);
        var elevenForm = BsonDecimal128.FromIeeeBits(0x6C10000000000000UL, 0);

        Assert.Equal("0", tooLarge.ToString());
        Assert.True(tooLarge.IsZero);
        Assert.True(elevenForm.IsZero);
        Assert.Equal(BsonDecimal128.Zero, elevenForm);
    }

    [Fact]
    public void Converts_to_System_Decimal_only_when_exact()
    {
        Assert.Equal(1000m, (decimal)BsonDecimal128.Parse("1E+3"));
        Assert.Equal(2, ((decimal)BsonDecimal128.Parse("1.50")).Scale);
        Assert.Equal(decimal.MaxValue, (decimal)BsonDecimal128.Parse("79228162514264337593543950335"));
        Assert.Throws<OverflowException>(() => (decimal)BsonDecimal128.NaN);
        Assert.Throws<OverflowException>(() => (decimal)BsonDecimal128.PositiveInfinity);
        Assert.Throws<OverflowException>(() => (decimal)BsonDecimal128.Parse("79228162514264337593543950336"));
        Assert.Throws<OverflowException>(() => (decimal)BsonDecimal128.Parse("1E-29"));
        Assert.Throws<OverflowException>(() => ((BsonValue)BsonDecimal128.Parse("1E+40")).AsDecimal);
    }

    [Fact]
    public void System_Decimal_converts_exactly_keeping_scale_and_the_sign_of_zero()
    {
        Assert.True(((BsonDecimal128)1.50m).BitsEqual(BsonDecimal128.Parse("1.50")));
        Assert.True(((BsonDecimal128)new decimal(0, 0, 0, true, 3)).BitsEqual(BsonDecimal128.Parse("-0.000")));
        Assert.True(((BsonDecimal128)decimal.MinValue).BitsEqual(BsonDecimal128.Parse("-79228162514264337593543950335")));
    }

    [Fact]
    public void Orders_numerically_with_NaN_first_and_zeros_equal()
    {
        string[] ascending = ["NaN", "-Infinity", "-1E+6144", "-1", "-0.5", "0", "1E-6176", "0.1", "1", "1.5", "1E+3", "9.999999999999999999999999999999999E+6144", "Infinity"];
        for (var i = 1; i < ascending.Length; i++)
        {
            Assert.True(BsonDecimal128.Parse(ascending[i - 1]) < BsonDecimal128.Parse(ascending[i]), $"{ascending[i - 1]} < {ascending[i]}");
        }

        Assert.Equal(BsonDecimal128.Parse("-0E-6176"), BsonDecimal128.Parse("0E+9"));
        Assert.Equal(BsonDecimal128.Parse("1E+3").GetHashCode(), BsonDecimal128.Parse("1000").GetHashCode());
        Assert.False(BsonDecimal128.Parse("1E+3").BitsEqual(BsonDecimal128.Parse("1000")));
    }

    [Fact]
    public void Converts_to_the_nearest_double()
    {
        Assert.Equal(0.1, BsonDecimal128.Parse("0.1").ToDouble());
        Assert.Equal(double.NegativeInfinity, BsonDecimal128.NegativeInfinity.ToDouble());
        Assert.True(double.IsNaN(BsonDecimal128.NaN.ToDouble()));
        Assert.Equal(double.PositiveInfinity, BsonDecimal128.Parse("1E+400").ToDouble());
    }
}
