// Ansible variables no declaration defines any more (issue 31, point 6): a variable a task, handler or
// template uses (`{{ docker_edition }}`) is reported once nothing in the workspace declares it — not
// defaults/, vars/, group_vars/, a `set_fact`, a `register:` — and never while anything still does,
// wherever the declaration moved or whatever value it was given. A name nothing declared when first
// seen (a fact, an inventory or extra variable) is no reference at all.

import { strict as assert } from 'node:assert';
import { variableUses } from '../../../../src/engine/drift/ansibleVars';
import { driftSpace, type DriftSpace } from '../../../support/drift';

describe('drift: Ansible variables tasks and templates use', function () {
  let s: DriftSpace;
  afterEach(() => s.cleanup());

  const TASKS = [
    '---',
    '- name: Install Docker',
    '  package:',
    '    name: "docker-{{ docker_edition }}"',
    '    state: "{{ docker_packages_state | default(\'present\') }}"',
    '  register: docker_install',
    '- name: Report',
    '  debug:',
    '    msg: "{{ docker_install.changed }} on {{ ansible_distribution }} for {{ deploy_user }}"',
    '  when: docker_install is changed',
    '',
  ].join('\n');

  const files = () => ({
    'defaults/main.yml': "---\ndocker_edition: 'ce'\ndocker_packages_state: present\n",
    'tasks/main.yml': TASKS,
    'templates/daemon.json.j2': '{ "data-root": "{{ docker_data_root }}" }\n',
    'group_vars/all.yml': 'docker_data_root: /var/lib/docker\n',
  });

  it('a variable whose last declaration is removed is gone; one moved to vars/ or re-valued is not', () => {
    s = driftSpace(files());
    s.engine.driftScan();
    const uses = s.all().filter((f) => f.source.path === 'tasks/main.yml');
    assert.deepEqual(uses.map((f) => [f.reference.raw, f.state, f.reference.target_path]).sort(), [
      ['{{ docker_edition }}', 'current', 'defaults/main.yml'],
      ['{{ docker_install }}', 'current', 'tasks/main.yml'],
      ['{{ docker_packages_state }}', 'current', 'defaults/main.yml'],
    ]);
    // `deploy_user` (an extra or inventory variable) and `ansible_distribution` (a fact) were never declared here.
    assert.deepEqual(s.refs('tasks/main.yml', '{{ deploy_user }}'), []);
    const [template] = s.refs('templates/daemon.json.j2', '{{ docker_data_root }}');
    assert.deepEqual([template?.state, template?.reference.target_path], ['current', 'group_vars/all.yml']);

    // docker_edition moves to vars/ and gets another value; docker_packages_state is removed for good.
    s.write('defaults/main.yml', '---\n');
    s.write('vars/main.yml', "---\ndocker_edition: 'ee'\n");
    s.engine.driftCheck(['defaults/main.yml', 'vars/main.yml']);
    const [moved] = s.refs('tasks/main.yml', '{{ docker_edition }}');
    assert.deepEqual([moved.state, moved.reference.target_path], ['current', 'vars/main.yml']);
    const [gone] = s.refs('tasks/main.yml', '{{ docker_packages_state }}');
    assert.equal(gone.state, 'gone');
    assert.equal(
      gone.evidence.detail,
      'docker_packages_state is declared nowhere in the workspace any more (it was in defaults/main.yml)',
    );

    // The template's variable: group_vars/ emptied, then a full scan agrees.
    s.write('group_vars/all.yml', '---\n');
    s.engine.driftScan();
    assert.equal(s.refs('templates/daemon.json.j2', '{{ docker_data_root }}')[0].state, 'gone');
    assert.equal(s.refs('tasks/main.yml', '{{ docker_edition }}')[0].state, 'current');
  });

  it('reads the variable each expression starts with, once, never a built-in or a commented line', () => {
    const uses = variableUses(
      '# {{ old_var }}\n- x: "{{ a_var }} {{- b_var[0] }} {{ item.name }} {{ a_var }} {{ hostvars[h] }}"\n',
    );
    assert.deepEqual(
      uses.map((u) => [u.raw, u.line]),
      [
        ['{{ a_var }}', 2],
        ['{{ b_var }}', 2],
      ],
    );
  });
});
