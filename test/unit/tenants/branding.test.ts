import { pageBrandingOf } from '#lib/tenants/rules/branding';
import { checkAccentColor } from '#lib/tenants/rules/accent-color';

describe('checkAccentColor', () => {
  it.each([
    ['#767676', '#767676'], // 4.54:1, the lightest grey that passes
    ['#0A58CA', '#0a58ca'],
    [' #000000 ', '#000000'],
  ])('takes %s (at least 4.5:1 against white) as %s', (input, stored) => {
    expect(checkAccentColor(input)).toEqual({ color: stored });
  });

  it.each([
    ['#777777', /4\.48:1/],
    ['#ffff00', /1\.07:1/],
    ['#ffffff', /1\.00:1/],
  ])('refuses %s, too light for white text, naming its contrast', (input, contrast) => {
    const checked = checkAccentColor(input);
    expect(checked).toEqual({ problem: expect.stringMatching(contrast) });
  });

  it.each(['#fff', 'navy', 'rgb(0,0,0)', '#12345g', '#1234567'])('refuses %s, which is no #rrggbb', (input) => {
    expect(checkAccentColor(input)).toEqual({ problem: expect.stringMatching(/#rrggbb/) });
  });
});

describe('pageBrandingOf', () => {
  it('takes each member from the gallery where it has one, else from the tenant, else null', () => {
    expect(
      pageBrandingOf({ accentColor: '#111111' }, { logoUrl: 'data:image/webp;base64,AA', accentColor: '#222222' }),
    ).toEqual({
      logoUrl: 'data:image/webp;base64,AA',
      accentColor: '#111111',
    });
    expect(pageBrandingOf(undefined, undefined)).toEqual({ logoUrl: null, accentColor: null });
  });
});
